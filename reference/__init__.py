"""Numpy golden models of the operators under test: float64 (complex128) values and error scales.

Each function takes the arguments by the documents' parameter names and returns a dict of
``Golden`` by output name. Every case runs them, so they are vectorised: no per-element Python.
"""
from .golden import Golden
from .kl_div import kl_div_backward
from .replication_pad3d import replication_pad3d_backward

__all__ = ["Golden", "kl_div_backward", "replication_pad3d_backward"]
from .losses import kl_div, mse_loss_backward, smooth_l1_loss_backward  # noqa: E402

__all__ += ["kl_div", "mse_loss_backward", "smooth_l1_loss_backward"]
from .pad_backward import (  # noqa: E402
    circular_pad2d_backward,
    reflection_pad3d_backward,
    replication_pad1d_backward,
    replication_pad2d_backward,
)

__all__ += ["circular_pad2d_backward", "reflection_pad3d_backward", "replication_pad1d_backward",
            "replication_pad2d_backward"]
from .binary_cross_entropy import binary_cross_entropy_backward  # noqa: E402

__all__ += ["binary_cross_entropy_backward"]
from .nll_loss import nll_loss_backward  # noqa: E402

__all__ += ["nll_loss_backward"]
