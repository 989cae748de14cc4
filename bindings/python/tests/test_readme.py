"""The README's Python and Dask examples, read from README.md and run as written."""

import pathlib

import pytest

README = pathlib.Path(__file__).resolve().parents[3] / "README.md"


def block(info):
    lines = README.read_text(encoding="utf-8").split("\n")
    for i, line in enumerate(lines):
        fence = len(line) - len(line.lstrip("`"))
        if fence >= 3 and line[fence:].strip() == info:
            end = next(j for j in range(i + 1, len(lines)) if lines[j].strip() == line[:fence])
            return "\n".join(lines[i + 1 : end]) + "\n"
    raise AssertionError(f"README.md has no ```{info} block")


def test_readme_python_example(capsys):
    exec(compile(block("python python-example"), "README.md:python-example", "exec"), {})
    assert capsys.readouterr().out == "src/a.rs\n"


def test_readme_dask_example():
    pytest.importorskip("dask.bag", reason="pip install dask (the .ci/run venv has it)")
    exec(compile(block("python dask-example"), "README.md:dask-example", "exec"), {})
