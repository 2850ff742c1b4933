# Writes a C file defining `const unsigned char NAME[]` (16-byte aligned, with
# a NUL after the data so text can be read as a string) and
# `const size_t NAME_size` (the data's length) holding the bytes of INPUT.
# Used for the IRDL dialect text and for test code objects.
#   cmake -DINPUT=file -DOUTPUT=file.c -DNAME=symbol -P embed_file.cmake
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" length)
math(EXPR size "${length} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "((0x..,){16})" "\\1\n" bytes "${bytes}")
file(WRITE "${OUTPUT}.tmp"
  "// Generated from ${INPUT} by cmake/embed_file.cmake; do not edit.\n"
  "#include <stddef.h>\n"
  "const unsigned char ${NAME}[] __attribute__((aligned(16))) = {\n${bytes}0};\n"
  "const size_t ${NAME}_size = ${size};\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
