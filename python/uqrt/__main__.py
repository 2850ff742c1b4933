"""`python -m uqrt`: the environment report to paste into a bug report.

It says which libuqrt was loaded (path and version), which backends work
here and why the others do not, the GPU, torch and its custom ops, and the
code objects the library embeds. It exits 0 when at least one backend
works, 1 otherwise.
"""

import platform
import sys


def _backends(uqrt):
    """(name, ok, description or reason) for every backend; auto last."""
    rows = []
    for name in ("hip", "cuda", "sim", "host", "auto"):
        try:
            with uqrt.Context(name) as ctx:
                rows.append((name, True, ctx.description))
        except uqrt.Error as e:
            rows.append((name, False, e.message))
    return rows


def _torch_line():
    try:
        import torch
    except ImportError:
        return "not installed (numpy arrays serve the host and sim backends)"
    cuda = torch.version.cuda or "none"
    gpu = (torch.cuda.get_device_name(0) if torch.cuda.is_available()
           else "no CUDA device")
    from . import torch_ops
    ops = (", ".join(torch_ops.OPS) if torch_ops.registered() else
           "not registered (" + torch_ops.why_not() + ")")
    return f"{torch.__version__} (CUDA {cuda}, {gpu}); custom ops: {ops}"


def main():
    try:
        import uqrt
    except Exception as e:  # noqa: BLE001 - the report is the point
        print(f"uqrt: cannot load the library: {e}")
        return 1
    major, minor = uqrt.runtime_version()
    print(f"uqrt {uqrt.__version__}, libuqrt {major}.{minor}")
    print(f"  library  {uqrt.library_path}")
    print(f"  package  {uqrt.__path__[0]}")
    print(f"  python   {platform.python_version()} on {platform.platform()}")
    print(f"  torch    {_torch_line()}")
    print("backends")
    rows = _backends(uqrt)
    for name, ok, text in rows:
        print(f"  {name:<5} {'ok' if ok else 'no'}: {text}")
    working = [name for name, ok, _ in rows if ok and name != "auto"]
    if not working:
        print("no backend works here")
        return 1
    with uqrt.Context(working[0]) as ctx:
        records = ctx.variants()
    print(f"embedded code objects ({len(records)})")
    for r in records:
        serves = (f"QG 1..{r['qg_max']}, {r['rows']} rows a block"
                  if r["kind"] == "decode" else "")
        print(f"  {r['variant']:<28} {r['kind']:<6} {r['target']:<6} "
              f"D {r['head_dim']:<3} {serves}".rstrip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
