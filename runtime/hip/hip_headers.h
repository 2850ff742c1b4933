// The only place libuqrt includes the HIP headers, for types and constants:
// every function is called through the dlopen'ed symbol table.
#ifndef UQ_RUNTIME_HIP_HIP_HEADERS_H_
#define UQ_RUNTIME_HIP_HIP_HEADERS_H_

#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#include <hip/hip_runtime_api.h> // IWYU pragma: export

#endif // UQ_RUNTIME_HIP_HIP_HEADERS_H_
