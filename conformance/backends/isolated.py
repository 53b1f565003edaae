"""Run a backend in a worker process, so a segfault, abort or hang costs one case, not the run.

The worker loads the backend by its spec; each call puts the storage buffers of every tensor
argument (guard margins and views included) into memory shared with the worker (arena.py: one
copy each way, no pickling) and copies them all back, inputs too, so the guard checks see exactly
what the backend did. A worker that dies or does not answer within the case
timeout is replaced, and the call raises ``BackendDied`` / ``BackendTimedOut`` (judged as
``crash`` / ``timeout`` findings).
"""
from __future__ import annotations

import multiprocessing as mp
import signal
import traceback
from typing import Any

import numpy as np

from conformance.backends.arena import Arena, ArenaView
from conformance.backends.loading import backend_for, describe_backend
from conformance.backends.protocol import AdapterError, CallResult, call_checked
from conformance.cases.tensor import Tensor, TensorMeta, view_into
from conformance.errors import UsageError
from conformance.spec.values import TensorList, element_name, flat_arg, flat_tensors

START_TIMEOUT = 120.0  # importing a vendor stack (torch, CANN) can take a while
CLOSE_TIMEOUT = 5.0  # a backend's close (aclFinalize) before its worker is killed


class BackendDied(Exception):
    kind = "crash"


class BackendTimedOut(Exception):
    kind = "timeout"


class BackendRaised(Exception):
    kind = "crash"

    def __init__(self, message: str, trace: str | None = None) -> None:
        super().__init__(message)
        self.trace = trace  # the worker's traceback of the backend's exception


def _describe_exit(code: int | None) -> str:
    if code is None:
        return "did not exit"
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with code {code}"


def _pack(args: dict[str, Any]) -> dict[str, Any]:
    """The arguments without their buffers: a tensor travels as its view's description."""
    out: dict[str, Any] = {}
    for name, value in args.items():
        if isinstance(value, Tensor):
            out[name] = ("tensor", _described(value))
        elif isinstance(value, TensorList):  # each element's buffer travels by its flat name
            out[name] = ("tensor_list", [None if e is None else _described(e) for e in value])
        else:
            out[name] = ("value", value)
    return out


def _described(value: Tensor) -> TensorMeta:
    return TensorMeta(value.shape, value.dtype_name or "", value.element_strides, value.offset,
                      value.format)


def _unpack(packed: dict[str, Any], storages: dict[str, np.ndarray]) -> dict[str, Any]:
    args: dict[str, Any] = {}
    for name, entry in packed.items():
        if entry[0] == "tensor":
            args[name] = _tensor(entry[1], storages[name])
        elif entry[0] == "tensor_list":
            args[name] = TensorList(None if meta is None else _tensor(meta, storages[element_name(name, i)])
                                    for i, meta in enumerate(entry[1]))
        else:
            args[name] = entry[1]
    return args


def _tensor(meta: TensorMeta, storage: np.ndarray) -> Tensor:
    return Tensor(view_into(storage, meta), storage, meta.format, meta.dtype or None)


def _storages(payload: tuple[Any, ...], arena: ArenaView) -> dict[str, np.ndarray]:
    """The worker's buffers: views of the shared arena, or the arrays that came through the pipe."""
    if payload[0] == "shared":
        _, path, places = payload
        return {name: arena.view(path, *place) for name, place in places.items()}
    return payload[1]


def _worker(conn: Any, spec: str, product: str | None) -> None:
    try:
        backend = backend_for(spec, product or "")
    except Exception as exc:  # noqa: BLE001 - reported to the parent as a usage error
        conn.send(("error", str(exc)))
        return
    conn.send(("hello", describe_backend(backend)))
    arena = ArenaView()
    while True:
        message = conn.recv()
        if message is None:  # the run is done: let the backend release its device
            getattr(backend, "close", lambda: None)()
            return
        api, packed, payload = message
        args = _unpack(packed, _storages(payload, arena))
        try:
            result = call_checked(backend, api, args)
        except AdapterError as exc:
            conn.send(("protocol", str(exc), {}))
            continue
        except Exception as exc:  # noqa: BLE001 - the backend's exception goes back to the judge
            conn.send(("raised", (f"{type(exc).__name__}: {exc}", traceback.format_exc()), {}))
            continue
        back = None if payload[0] == "shared" else _buffers(args)
        conn.send(("ok", (result.status, result.phase), back))


def _buffers(args: dict[str, Any]) -> dict[str, np.ndarray]:
    """Every tensor's storage by flat name (a list's elements as ``x[i]``)."""
    return {flat: t.storage for flat, _, t in flat_tensors(args) if isinstance(t, Tensor)}


class IsolatedBackend:
    """The backend named by ``spec``, called through a worker process with a per-call timeout."""

    def __init__(self, spec: str, product: str | None, timeout: float, shared: bool = True) -> None:
        """``shared``: buffers travel through a shared arena (arena.py), else pickled through the pipe."""
        self.spec, self.timeout, self._product = spec, timeout, product
        self._arena = Arena() if shared else None
        self._ctx = mp.get_context("spawn")  # never fork a process that may hold threads (torch)
        self._start()

    def _start(self) -> None:
        self._conn, child = self._ctx.Pipe()
        self._proc = self._ctx.Process(target=_worker, args=(child, self.spec, self._product), daemon=True)
        self._proc.start()
        child.close()
        if not self._conn.poll(START_TIMEOUT):
            self._kill()
            raise UsageError(f"--backend {self.spec}: the worker did not start within {START_TIMEOUT:.0f} s")
        try:
            hello = self._conn.recv()
        except EOFError:
            self._proc.join(5)  # the pipe closes a moment before the exit code is known
            code = self._proc.exitcode
            raise UsageError(f"--backend {self.spec}: the worker {_describe_exit(code)} while "
                             "loading the backend") from None
        if hello[0] == "error":
            raise UsageError(hello[1])
        self.about: dict[str, Any] = hello[1]  # what the parent may know of the backend
        self.name, self.version, self.product = (self.about[k] for k in ("name", "version", "product"))
        self.product_from_device = self.about["product_from_device"]

    def _kill(self) -> None:
        if self._proc.is_alive():
            self._proc.kill()
        self._proc.join(5)

    def _restart(self) -> None:
        self._kill()
        self._start()

    def call(self, api: str, args: dict[str, Any]) -> Any:
        buffers = _buffers(args)
        if self._arena is not None:
            places = self._arena.put(buffers)
            message = (api, _pack(args), ("shared", self._arena.path, places))
        else:
            message = (api, _pack(args), ("pipe", buffers))
        try:
            self._conn.send(message)
        except (OSError, ValueError):  # the worker died between calls
            self._restart()
            self._conn.send(message)
        if not self._conn.poll(self.timeout):
            self._restart()
            raise BackendTimedOut(f"timed out: no answer within the case timeout of {self.timeout:g} s "
                                  "(its worker was killed and replaced)")
        try:
            kind, value, storages = self._conn.recv()
        except (EOFError, ConnectionError):
            self._proc.join(5)
            how = _describe_exit(self._proc.exitcode)
            self._restart()
            raise BackendDied(f"crashed: its worker process {how}") from None
        if kind == "raised":
            raise BackendRaised(f"raised {value[0]}", value[1])
        if kind == "protocol":
            raise AdapterError(value)
        if storages is None:  # shared: the backend wrote into the arena
            storages = {name: self._arena.view(*place) for name, place in places.items()}
        for name, storage in storages.items():
            flat_arg(args, name).storage[...] = storage
        return CallResult(*value)

    def close(self) -> None:
        try:
            self._conn.send(None)
            self._proc.join(CLOSE_TIMEOUT)
        except (OSError, ValueError):
            pass
        self._kill()
        if self._arena is not None:
            self._arena.close()
