# Writes a C file defining `const char NAME[]` with the bytes of INPUT, so a
# text asset (the IRDL dialect) is compiled into the library that loads it.
# Usage: cmake -DINPUT=... -DOUTPUT=... -DNAME=... -P embed_text.cmake
file(READ "${INPUT}" content HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${content}")
file(WRITE "${OUTPUT}"
  "// Generated from ${INPUT}; do not edit.\n"
  "#include <stddef.h>\n"
  "const char ${NAME}[] = {${bytes} 0};\n"
  "const size_t ${NAME}_size = sizeof(${NAME}) - 1;\n")
