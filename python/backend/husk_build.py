"""husk's PEP 517 build backend: builds the _husk extension with CMake and
packs python/husk into a wheel.

Why not setuptools: a fresh `python3 -m venv` on Debian 12 holds pip and
setuptools 65 but not `wheel`, which that setuptools needs for any wheel
(`invalid command 'bdist_wheel'`), so `pip install --no-build-isolation .`
would fail offline. This backend needs only the standard library and CMake.

The extension is built in the tree's CMake build directory: HUSK_BUILD_DIR,
else `build` when `make build` configured it (a wheel then reuses what that
built), else `build-python`, configured here without tests.
"""
from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NAME = "husk"
SUMMARY = "Boilerplate removal and near-duplicate detection for crawled web pages"


def _version() -> str:
    m = re.search(r"project\(husk VERSION ([0-9.]+)", (ROOT / "CMakeLists.txt").read_text())
    if not m:
        raise RuntimeError("CMakeLists.txt: no project(husk VERSION ...)")
    return m.group(1)


def _metadata() -> str:
    return (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {_version()}\nSummary: {SUMMARY}\n"
            "Requires-Python: >=3.9\nLicense: see the repository\n")


def _wheel_tag() -> str:
    impl = f"cp{sys.version_info.major}{sys.version_info.minor}"
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{impl}-{impl}-{platform}"


def _build_extension() -> Path:
    # `make build`'s directory when it is there; otherwise one of its own,
    # so that configuring without tests never changes what `make` builds.
    default = ROOT / "build" if (ROOT / "build" / "CMakeCache.txt").exists() else ROOT / "build-python"
    build = Path(os.environ.get("HUSK_BUILD_DIR", default))
    if not build.is_absolute():
        build = ROOT / build
    jobs = str(os.cpu_count() or 2)
    if not (build / "CMakeCache.txt").exists():
        subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                        "-DHUSK_BUILD_TESTS=OFF", "-DHUSK_BUILD_BENCH=OFF"], check=True, stdout=sys.stderr)
    subprocess.run(["cmake", "--build", str(build), "-j", jobs, "--target", "husk_python"], check=True,
                   stdout=sys.stderr)
    found = sorted((build / "python" / "husk").glob("_husk*.so"))
    if not found:
        raise RuntimeError(f"{build}/python/husk: the build left no _husk module")
    return found[0]


def _record_line(path: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    info = Path(metadata_directory) / f"{NAME}-{_version()}.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(_metadata())
    return info.name


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    module = _build_extension()
    version = _version()
    tag = _wheel_tag()
    files = {f"husk/{p.name}": p.read_bytes() for p in sorted((ROOT / "python" / "husk").iterdir()) if p.is_file()}
    files[f"husk/{module.name}"] = module.read_bytes()
    info = f"{NAME}-{version}.dist-info"
    files[f"{info}/METADATA"] = _metadata().encode()
    files[f"{info}/WHEEL"] = (f"Wheel-Version: 1.0\nGenerator: husk_build\nRoot-Is-Purelib: false\nTag: {tag}\n").encode()
    record = [_record_line(path, data) for path, data in files.items()] + [f"{info}/RECORD,,"]
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    wheel_name = f"{NAME}-{version}-{tag}.whl"
    with zipfile.ZipFile(Path(wheel_directory) / wheel_name, "w", zipfile.ZIP_DEFLATED) as wheel:
        for path, data in files.items():
            entry = zipfile.ZipInfo(path, date_time=(2020, 1, 1, 0, 0, 0))
            entry.external_attr = (0o755 if path.endswith(".so") else 0o644) << 16
            wheel.writestr(entry, data, zipfile.ZIP_DEFLATED)
    return wheel_name


def build_sdist(sdist_directory, config_settings=None):
    """The tracked sources (git ls-files), or the tree less build outputs."""
    version = _version()
    base = f"{NAME}-{version}"
    try:
        listed = subprocess.run(["git", "-C", str(ROOT), "ls-files"], check=True, capture_output=True,
                                text=True).stdout.split("\n")
        paths = [p for p in listed if p and (ROOT / p).is_file()]
    except (OSError, subprocess.CalledProcessError):
        skip = {"build", "out", ".git"}
        paths = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*")
                 if p.is_file() and p.relative_to(ROOT).parts[0] not in skip]
    name = f"{base}.tar.gz"
    with tarfile.open(Path(sdist_directory) / name, "w:gz") as tar:
        for p in sorted(paths):
            tar.add(ROOT / p, arcname=f"{base}/{p}")
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        data = _metadata().encode()
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return name
