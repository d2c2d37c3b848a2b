"""engine_adapter.py around an engine with a bug: it forgets that one part of a split 7 may
enter home, and leaves such splits out of its legal moves."""

import engine_adapter

all_legal_moves = engine_adapter.legal_moves_of


def legal_moves_of(position: str) -> list[str]:
    """The engine's legal moves, less every split 7 with a part that ends in home."""
    moves = all_legal_moves(position)
    return [m for m in moves if not (m.startswith("7 ") and m.count(":") == 2 and "-h" in m)]


engine_adapter.legal_moves_of = legal_moves_of
engine_adapter.main()
