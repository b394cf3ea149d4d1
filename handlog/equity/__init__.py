"""All-in equities for the stud games (design note to follow)."""

from handlog.equity.calculate import Equities, Method, Share, equities
from handlog.equity.spot import Holding, Spot, SpotError

__all__ = ["Equities", "Holding", "Method", "Share", "Spot", "SpotError", "equities"]
