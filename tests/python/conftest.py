"""Shared by the Python tests (ctest runs them with pytest; tests/CMakeLists.txt sets
SLOSHLAB_PYTHON_DIR, the folder of the built module, and SLOSHLAB_EXECUTABLE)."""
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.environ.get("SLOSHLAB_PYTHON_DIR", os.path.join(os.path.dirname(__file__), "../../build/python")))

EXECUTABLE = os.environ.get("SLOSHLAB_EXECUTABLE", os.path.join(os.path.dirname(__file__), "../../build/sloshlab"))
SOURCE_DIR = os.path.abspath(os.path.join(os.path.dirname(__file__), "../.."))


def run_cli(*args, cwd=None, check=True):
    """The command line with these arguments; returns the CompletedProcess (text)."""
    result = subprocess.run([EXECUTABLE, *map(str, args)], capture_output=True, text=True, cwd=cwd, timeout=600)
    if check and result.returncode != 0:
        raise AssertionError(f"sloshlab {' '.join(map(str, args))} exited {result.returncode}: {result.stderr}")
    return result


def cli_error_line(*args):
    """The one line the command line prints for bad input, without its 'sloshlab: error: ' tag."""
    result = run_cli(*args, check=False)
    assert result.returncode == 2, result
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("sloshlab: error: ")
    return lines[0][len("sloshlab: error: "):]


@pytest.fixture
def cli():
    return run_cli
