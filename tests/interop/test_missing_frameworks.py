"""Without the ``rl`` extra the adapters say what to install; the rest of golfsim does not need the frameworks."""

import subprocess
import sys

import pytest


@pytest.mark.parametrize(
    ("module", "framework", "name"),
    [("golfsim.interop.gymnasium", "gymnasium", "Gymnasium"),
     ("golfsim.interop.pettingzoo", "pettingzoo", "PettingZoo"),
     ("golfsim.interop.openspiel", "pyspiel", "OpenSpiel")],
)
def test_an_adapter_without_its_framework_names_the_extra_to_install(module, framework, name):
    script = f"import sys\nsys.modules[{framework!r}] = None  # as if not installed\nimport {module}\n"
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert run.returncode == 1
    assert f"ImportError: {module} needs {name}: pip install 'golfsim[rl]'" in run.stderr


def test_the_core_and_the_shared_match_import_no_framework():
    script = ("import sys\nimport golfsim.interop.match, golfsim.kernels.simulate, golfsim.game.env\n"
              "print(sorted(m for m in ('gymnasium', 'pettingzoo', 'pyspiel') if m in sys.modules))\n")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"
