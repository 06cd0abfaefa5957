"""Build the Cython core. Everything else is declared in pyproject.toml."""

from Cython.Build import cythonize
from setuptools import Extension, setup

extensions = [
    Extension(
        "mjcore._core",
        ["mjcore/_core.pyx"],
        extra_compile_args=["-O3"],
    ),
    # the wire format of the service's hot methods (service/servicer.py)
    Extension("service._wire", ["service/_wire.pyx"], extra_compile_args=["-O3"]),
]

setup(
    ext_modules=cythonize(
        extensions,
        language_level=3,
        compiler_directives={"boundscheck": False, "wraparound": False, "cdivision": True},
    )
)
