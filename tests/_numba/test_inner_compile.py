"""``hot`` and ``leaf`` functions are compiled only for the compiled code that calls them: once per plain argument
type, without machine code of their own, and cached as bitcode that a caller compiled in a later process links in.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from numba import types

from golfsim._numba.fence import INTERNALS
from golfsim._numba.inner_compile import InnerDispatcher, plain_type
from tests.inner_compile_example import add_twice, twice

ROOT = Path(__file__).resolve().parents[2]

# under GOLFSIM_NUMBA_FALLBACK=1 (or an untested Numba) hot and leaf are plain njit: nothing here applies
pytestmark = pytest.mark.skipif(not INTERNALS, reason="the Numba internals are not used in this process")


def test_hot_and_leaf_functions_get_the_inner_dispatcher():
    assert isinstance(twice, InnerDispatcher) and isinstance(add_twice, InnerDispatcher)
    assert twice.targetoptions["forceinline"] and "forceinline" not in add_twice.targetoptions


def test_literals_and_narrow_integers_compile_as_int64():
    assert plain_type(types.IntegerLiteral(3)) == types.int64
    assert plain_type(types.int8) == types.int64
    assert plain_type(types.uint8) == types.uint8  # unsigned types keep their width (and their arithmetic)
    assert plain_type(types.float32) == types.float32


# What the compiler did can only be seen in a process that compiled: with a warm cache the callers are loaded from
# it and nothing compiles. So these checks run in a new process with a cache directory of their own (issue 27).
COMPILE_REPORT = """
import json
import pytest
from numba import types
from golfsim._numba.inner_compile import InlineOnlyLibrary
from tests.inner_compile_example import call_twice_by_value, sum_of_twice, twice, twice_by_value
report = {"sum": sum_of_twice(4), "by_value": call_twice_by_value(7)}
report["twice signatures"] = [str(s) for s in twice.signatures]
inner = twice.overloads[(types.int64,)]
caller = next(iter(sum_of_twice.overloads.values()))
engine = inner.library.codegen._engine
report["inline-only library"] = isinstance(inner.library, InlineOnlyLibrary)
report["inner symbol emitted"] = bool(engine.is_symbol_defined(inner.fndesc.mangled_name))
report["caller wrapper emitted"] = bool(engine.is_symbol_defined(caller.fndesc.llvm_cpython_wrapper_name))
by_value_library = twice_by_value.overloads[(types.int64,)].library
report["by-value library has dynamic globals"] = bool(by_value_library.has_dynamic_globals)
print(json.dumps(report))
"""


@pytest.fixture(scope="module")
def compiled_fresh(tmp_path_factory) -> dict:
    cache = tmp_path_factory.mktemp("numba-cache")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", COMPILE_REPORT], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_caller_passing_a_variable_and_a_literal_compiles_the_leaf_once(compiled_fresh):
    assert compiled_fresh["sum"] == (0 + 2 + 4 + 6) + 4 * 6
    assert compiled_fresh["twice signatures"] == ["(int64,)"]


def test_an_inner_function_has_no_machine_code_of_its_own(compiled_fresh):
    assert compiled_fresh["inline-only library"]
    assert not compiled_fresh["inner symbol emitted"]  # inlined into the caller, emitted nowhere
    assert compiled_fresh["caller wrapper emitted"]


def test_a_call_from_python_runs_a_copy_compiled_with_entry_points():
    assert twice(21) == 42 and add_twice(1, 2) == 5
    assert twice._python_entry.py_func.__qualname__ == "twice__entry"
    assert twice._python_entry.py_func.__code__ is twice.py_func.__code__


def test_a_function_passing_a_dispatcher_as_a_value_can_still_be_cached(compiled_fresh):
    # Numba refuses to cache a library holding a dispatcher's address; once apply is inlined the address is unused
    assert compiled_fresh["by_value"] == 14
    assert not compiled_fresh["by-value library has dynamic globals"]


REPORT = """
import json, sys
from tests import inner_compile_example as example
callers = {"sum": example.sum_of_twice, "add": example.add_twice_to_itself}
values = {name: callers[name](5) for name in sys.argv[1].split(",")}
hits = {f.py_func.__name__: sum(f.stats.cache_hits.values()) for f in (example.twice, example.add_twice)}
print(json.dumps({"values": values, "hits": hits}))
"""


def run_callers(names: str, cache: Path) -> dict:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", REPORT, names], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_a_caller_compiled_in_a_later_process_links_in_the_cached_inner_functions(tmp_path):
    first = run_callers("sum", tmp_path)
    assert first == {"values": {"sum": 20 + 30}, "hits": {"twice": 0, "add_twice": 0}}
    # a new caller: add_twice is compiled, and twice, which it calls, comes from the cache as bitcode
    second = run_callers("add", tmp_path)
    assert second == {"values": {"add": 15}, "hits": {"twice": 1, "add_twice": 0}}
    # both callers are cached now, whole: neither inner function is needed again
    third = run_callers("sum,add", tmp_path)
    assert third == {"values": {"sum": 50, "add": 15}, "hits": {"twice": 0, "add_twice": 0}}
