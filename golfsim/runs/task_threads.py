"""The default executor of [`golfsim.runs.tasks.run_tasks`][]: a pool of *daemon* threads in this process.

A run stopped by Ctrl-C or SIGTERM returns what was complete and its process exits; a task still running is asked to
stop between chunks of its games and its result is ignored. A task that never reaches the next chunk (a plain-Python
agent that never returns its decision) must not keep the process alive after that: the standard
`concurrent.futures.ThreadPoolExecutor` joins its threads when the interpreter exits, so such an agent held a
stopped run open for ever. [`TaskThreads`][golfsim.runs.task_threads.TaskThreads] runs tasks the same way on daemon
threads, which the interpreter does not wait for.
"""

from __future__ import annotations

import queue
import threading
from concurrent.futures import Executor, Future


class TaskThreads(Executor):
    """Run submitted calls on up to ``workers`` daemon threads named ``NAME_0``, ``NAME_1``, ...

    Parameters
    ----------
    workers : int
        Threads at most (started as calls are submitted).
    name : str
        Prefix of the threads' names.
    """

    def __init__(self, workers: int, name: str = "golfsim-task"):
        if workers < 1:
            raise ValueError(f"workers must be at least 1, got {workers}")
        self._max_workers = int(workers)  # the attribute executor_workers reads, as on the standard executors
        self._name = name
        self._calls: queue.SimpleQueue = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._closed = False

    def submit(self, fn, /, *args, **kwargs) -> Future:
        with self._lock:
            if self._closed:
                raise RuntimeError("cannot submit to a TaskThreads pool after shutdown")
            future: Future = Future()
            self._calls.put((future, fn, args, kwargs))
            if len(self._threads) < self._max_workers:
                thread = threading.Thread(target=self._work, name=f"{self._name}_{len(self._threads)}", daemon=True)
                thread.start()
                self._threads.append(thread)
        return future

    def _work(self) -> None:
        while True:
            call = self._calls.get()
            if call is None:
                return
            future, fn, args, kwargs = call
            if not future.set_running_or_notify_cancel():
                continue
            try:
                result = fn(*args, **kwargs)
            except BaseException as e:  # noqa: BLE001 - handed to the caller through its future, as any executor does
                future.set_exception(e)
            else:
                future.set_result(result)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            self._closed = True
            if cancel_futures:
                pending = []
                while True:
                    try:
                        pending.append(self._calls.get_nowait())
                    except queue.Empty:
                        break
                for call in pending:
                    if call is not None:
                        call[0].cancel()
            for _ in self._threads:
                self._calls.put(None)
        if wait:
            for thread in self._threads:
                thread.join()
