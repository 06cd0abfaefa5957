"""Build the Cython core and install the service as ``mjservice``. The rest is in pyproject.toml.

The service's source folder is ``service/`` (``python -m service`` in a checkout), but a
top-level module called ``service`` clashes with users' own, so it installs as ``mjservice``:
``package_dir`` maps the folder to that name, and every subpackage found under ``service/``
goes along (found, not listed, so new modules need no change here). The wheel carries the
generated gRPC stubs (written into the wheel at build time) instead of the protos.
"""

import importlib.util
import os
import re
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, find_packages, setup
from setuptools.command.build_py import build_py

SRC, DIST = "service", "mjservice"
HERE = Path(__file__).resolve().parent
# ``from service.x import y`` / ``from service import x`` at the start of a line
_ABSOLUTE = re.compile(rf"^(\s*)from {SRC}(?=[.\s])", re.MULTILINE)


class BuildPy(build_py):
    """The usual build, then the service's stubs generated into the wheel, and any absolute
    ``from service...`` import left in a module pointed at ``mjservice``: imports within the
    package should be relative (they work under either name), and this keeps a module still
    written the other way working when installed."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:  # an editable install runs the sources where they are
            return
        pkg = Path(self.build_lib) / DIST
        for path in pkg.rglob("*.py"):
            text = path.read_text()
            fixed = _ABSOLUTE.sub(rf"\1from {DIST}", text)
            if fixed != text:
                path.write_text(fixed)
        spec = importlib.util.spec_from_file_location("_mj_codegen", HERE / SRC / "_codegen.py")
        assert spec is not None and spec.loader is not None
        codegen = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(codegen)
        gen = codegen.generate(gen_dir=pkg / "_gen", force=True)
        for junk in (".lock", ".gitignore"):
            (gen / junk).unlink(missing_ok=True)


# the subpackages of service/ (not the stubs: built above), renamed to mjservice
service_packages = [
    DIST + name[len(SRC) :]
    for name in find_packages(include=[SRC, f"{SRC}.*"], exclude=[f"{SRC}._gen", f"{SRC}._gen.*"])
]

extensions = [
    Extension(
        "mjcore._core",
        ["mjcore/_core.pyx"],
        extra_compile_args=["-O3"],
    ),
    # the wire format of the service's hot methods (service/servicer.py); ``build_ext
    # --inplace`` puts it in service/ (package_dir), where it imports as service._wire too
    Extension(f"{DIST}._wire", [f"{SRC}/_wire.pyx"], extra_compile_args=["-O3"]),
]

# ``make`` builds the extensions in place itself (its setup step, on every run): its editable
# install leaves them out, so a fresh checkout compiles the core once, not twice
WITH_EXTENSIONS = os.environ.get("MJ_INSTALL_WITHOUT_EXTENSIONS") != "1"

setup(
    packages=find_packages(include=["mjcore", "mjcore.*"]) + service_packages,
    package_dir={DIST: SRC},
    package_data={"mjcore": ["*.pyi", "*.pyx", "*.pxi", "py.typed"], DIST: ["*.pyi", "*.pyx"]},
    exclude_package_data={"": ["*.c"]},  # Cython's output: the wheel has the compiled module
    cmdclass={"build_py": BuildPy},
    ext_modules=cythonize(
        extensions,
        language_level=3,
        compiler_directives={"boundscheck": False, "wraparound": False, "cdivision": True},
    ) if WITH_EXTENSIONS else [],
)
