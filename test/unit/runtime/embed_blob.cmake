# cmake -DINPUT=file -DOUTPUT=file.c -DNAME=symbol -P embed_blob.cmake
# Writes `const unsigned char NAME[]` and `const size_t NAME_size` holding
# the bytes of INPUT.
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" length)
math(EXPR size "${length} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "((0x..,){16})" "\\1\n" bytes "${bytes}")
file(WRITE "${OUTPUT}.tmp"
  "// Generated from ${INPUT} by embed_blob.cmake.\n#include <stddef.h>\n"
  "const unsigned char ${NAME}[] __attribute__((aligned(16))) = {\n${bytes}\n};\n"
  "const size_t ${NAME}_size = ${size};\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
