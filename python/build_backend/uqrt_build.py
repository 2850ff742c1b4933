"""The PEP 517 build backend of pyproject.toml: `pip install .` and
`pip wheel .` run the project's CMake build and pack the Python package
with libuqrt (every code object embedded) and, unless told not to, the
simulator module beside it:

    uqrt/*.py
    uqrt/_lib/libuqrt.so        needs only libc/libm/libdl/pthread
    uqrt/_lib/libuqrt_sim.so    the sim backend (needs LLVM 22 at run time;
                                without it that backend says why it is out)

The compiler stack (LLVM/MLIR 22, lld, clang: scripts/install-deps.sh) is
needed to build the wheel, not to use it. The wheel's version is the
library's (uq/uqrt.h). Config settings (pip --config-settings=KEY=VALUE):
    sim=false        leave the simulator module out
    build-dir=PATH   the CMake build tree (default: build-wheel)
The backend needs nothing but the standard library, so
`pip install . --no-build-isolation` works without a package index.
"""

import base64
import hashlib
import io
import os
import pathlib
import re
import shutil
import subprocess
import sysconfig
import tarfile
import zipfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
NAME = "uqrt"
SUMMARY = ("UltraQuant 4-bit KV-cache attention (gfx950, sm_90a) from "
           "Python: the libuqrt runtime with its kernels embedded")


def _version():
    header = (ROOT / "runtime" / "include" / "uq" / "uqrt.h").read_text()
    major = re.search(r"^#define UQRT_VERSION_MAJOR (\d+)$", header, re.M)
    minor = re.search(r"^#define UQRT_VERSION_MINOR (\d+)$", header, re.M)
    return f"{major.group(1)}.{minor.group(1)}.0"


def _setting(config_settings, key, default):
    value = (config_settings or {}).get(key, default)
    return value[-1] if isinstance(value, list) else value


def _metadata(version):
    return (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {version}\n"
            f"Summary: {SUMMARY}\nLicense: see the repository\n"
            f"Requires-Python: >=3.9\nRequires-Dist: numpy\n"
            f"Provides-Extra: torch\nRequires-Dist: torch>=2.4; "
            f"extra == \"torch\"\n")


def _build(build_dir, with_sim):
    """The CMake build of libuqrt (and the simulator module)."""
    build_dir.mkdir(parents=True, exist_ok=True)
    subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build_dir), "-G",
                    "Ninja", "-DCMAKE_BUILD_TYPE=Release"], check=True)
    targets = ["uqrt"] + (["uqrt_sim"] if with_sim else [])
    subprocess.run(["cmake", "--build", str(build_dir), "-j",
                    str(os.cpu_count() or 1), "--target", *targets],
                   check=True)
    runtime = build_dir / "runtime"
    files = {"libuqrt.so": runtime / "libuqrt.so"}
    if with_sim:
        files["libuqrt_sim.so"] = runtime / "libuqrt_sim.so"
    return files


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest())
    return f"{path},sha256={digest.rstrip(b'=').decode()},{len(data)}"


def build_wheel(wheel_directory, config_settings=None,
                metadata_directory=None):
    del metadata_directory  # the metadata is written here
    version = _version()
    with_sim = _setting(config_settings, "sim", "true").lower() != "false"
    build_dir = pathlib.Path(_setting(config_settings, "build-dir",
                                      str(ROOT / "build-wheel")))
    libraries = _build(build_dir, with_sim)
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    tag = f"py3-none-{platform}"
    name = f"{NAME}-{version}-{tag}.whl"
    dist_info = f"{NAME}-{version}.dist-info"
    entries = []
    package = ROOT / "python" / NAME
    for path in sorted(package.rglob("*.py")):
        entries.append((f"{NAME}/{path.relative_to(package)}",
                        path.read_bytes()))
    for lib_name, path in libraries.items():
        # The real file, not the SONAME links: ctypes loads it by path.
        entries.append((f"{NAME}/_lib/{lib_name}",
                        path.resolve().read_bytes()))
    entries.append((f"{dist_info}/METADATA", _metadata(version).encode()))
    entries.append((f"{dist_info}/WHEEL",
                    (f"Wheel-Version: 1.0\nGenerator: uqrt_build\n"
                     f"Root-Is-Purelib: false\nTag: {tag}\n").encode()))
    entries.append((f"{dist_info}/top_level.txt", f"{NAME}\n".encode()))
    record = [_record_line(p, d) for p, d in entries]
    record.append(f"{dist_info}/RECORD,,")
    entries.append((f"{dist_info}/RECORD", ("\n".join(record) +
                                            "\n").encode()))
    out = pathlib.Path(wheel_directory) / name
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as wheel:
        for path, data in entries:
            info = zipfile.ZipInfo(path, date_time=(2026, 1, 1, 0, 0, 0))
            info.external_attr = (0o755 if path.endswith(".so") else
                                  0o644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(info, data)
    return name


def build_sdist(sdist_directory, config_settings=None):
    """The tracked files of the checkout (git ls-files) and PKG-INFO."""
    del config_settings
    version = _version()
    base = f"{NAME}-{version}"
    files = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"],
                           check=True, capture_output=True).stdout
    name = f"{base}.tar.gz"
    with tarfile.open(pathlib.Path(sdist_directory) / name, "w:gz") as tar:
        for rel in filter(None, files.decode().split("\0")):
            tar.add(ROOT / rel, arcname=f"{base}/{rel}", recursive=False)
        data = _metadata(version).encode()
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return name


def get_requires_for_build_wheel(config_settings=None):
    del config_settings
    missing = [tool for tool in ("cmake", "ninja")
               if shutil.which(tool) is None]
    if missing:
        raise RuntimeError(f"building uqrt needs {' and '.join(missing)}: "
                           f"run scripts/install-deps.sh")
    return []


def get_requires_for_build_sdist(config_settings=None):
    del config_settings
    return []
