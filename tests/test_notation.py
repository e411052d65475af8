"""SAN, LAN and UCI, both ways, with python-chess's parse_san leniency and its errors."""

from __future__ import annotations

import chess
import pytest

import pychess_rs

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
EP_FEN = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"
TWO_KNIGHTS = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1"  # b1 and f1 knights both reach d2
THREE_QUEENS = "1k6/8/8/8/4Q2Q/8/K7/7Q w - - 0 1"  # e4, h4 and h1 queens all reach e1
PINNED_KNIGHT = "4k3/8/8/8/1b6/2N5/8/4K1N1 w - - 0 1"  # c3 knight pinned, g1 knight free
PROMOTION = "3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1"
CASTLING = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"

NOTATION_FENS = [
    pychess_rs.STARTING_FEN,
    KIWIPETE,
    EP_FEN,
    TWO_KNIGHTS,
    THREE_QUEENS,
    PINNED_KNIGHT,
    PROMOTION,
    CASTLING,
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
    "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
    "4k3/8/8/8/8/R7/8/R3K3 w - - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
]


# --- writing ------------------------------------------------------------------------------


@pytest.mark.parametrize("fen", NOTATION_FENS)
def test_san_lan_uci_of_every_legal_move_match_python_chess(fen):
    board, oracle = pychess_rs.Board(fen), chess.Board(fen)
    for omove in oracle.legal_moves:
        move = pychess_rs.Move.from_uci(omove.uci())
        assert board.san(move) == oracle.san(omove)
        assert board.lan(move) == oracle.lan(omove)
        assert board.uci(move) == oracle.uci(omove)
    assert board.fen() == oracle.fen(), "writing notation does not change the board"


@pytest.mark.parametrize("fen", NOTATION_FENS)
def test_san_lan_uci_parse_back_to_the_same_move(fen):
    board, oracle = pychess_rs.Board(fen), chess.Board(fen)
    for omove in oracle.legal_moves:
        move = pychess_rs.Move.from_uci(omove.uci())
        assert board.parse_san(oracle.san(omove)) == move
        assert board.parse_san(oracle.lan(omove)) == move
        assert board.parse_uci(oracle.uci(omove)) == move


@pytest.mark.parametrize(
    ("fen", "uci", "san", "lan"),
    [
        (pychess_rs.STARTING_FEN, "e2e4", "e4", "e2-e4"),
        (pychess_rs.STARTING_FEN, "g1f3", "Nf3", "Ng1-f3"),
        (EP_FEN, "e5f6", "exf6", "e5xf6"),
        (CASTLING, "e1g1", "O-O", "O-O"),
        (CASTLING, "e1c1", "O-O-O", "O-O-O"),
        ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", "O-O+", "O-O+"),
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", "Ra8#", "Ra1-a8#"),
        (PROMOTION, "e7e8q", "e8=Q+", "e7-e8=Q+"),
        (PROMOTION, "e7d8n", "exd8=N", "e7xd8=N"),
        (PROMOTION, "e7d8r", "exd8=R+", "e7xd8=R+"),
        (TWO_KNIGHTS, "b1d2", "Nbd2", "Nb1-d2"),
        (TWO_KNIGHTS, "f1d2", "Nfd2", "Nf1-d2"),
        ("4k3/8/8/8/8/R7/8/R3K3 w - - 0 1", "a1a2", "R1a2", "Ra1-a2"),
        ("4k3/8/8/8/8/R7/8/R3K3 w - - 0 1", "a3a2", "R3a2", "Ra3-a2"),
        (THREE_QUEENS, "h4e1", "Qh4e1", "Qh4-e1"),
        (THREE_QUEENS, "h1e1", "Q1e1", "Qh1-e1"),
        (THREE_QUEENS, "e4e1", "Qee1", "Qe4-e1"),
        # A pinned knight does not count for disambiguation.
        (PINNED_KNIGHT, "g1e2", "Ne2", "Ng1-e2"),
        (
            "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
            "h5f7",
            "Qxf7#",
            "Qh5xf7#",
        ),
        (KIWIPETE, "e2a6", "Bxa6", "Be2xa6"),
        (KIWIPETE, "d5e6", "dxe6", "d5xe6"),
    ],
)
def test_known_san_and_lan(fen, uci, san, lan):
    board = pychess_rs.Board(fen)
    move = pychess_rs.Move.from_uci(uci)
    assert board.san(move) == san
    assert board.lan(move) == lan
    assert board.uci(move) == uci
    assert board.parse_san(san) == move
    assert board.parse_san(lan) == move


def test_null_move_notation():
    board = pychess_rs.Board()
    assert board.san(pychess_rs.Move.null()) == "--"
    assert board.lan(pychess_rs.Move.null()) == "--"
    assert board.uci(pychess_rs.Move.null()) == "0000"


def test_chess960_uci_and_san():
    board = pychess_rs.Board(
        "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1", chess960=True
    )
    move = pychess_rs.Move.from_uci("e1g1")
    assert board.san(move) == "O-O"
    assert board.uci(move) == "e1g1"
    assert board.parse_uci("e1g1") == move
    assert board.parse_san("O-O-O") == pychess_rs.Move.from_uci("e1b1")


def test_uci_of_castling_in_chess960_mode_for_a_standard_position():
    board = pychess_rs.Board(CASTLING, chess960=True)
    assert board.san(pychess_rs.Move.from_uci("e1h1")) == "O-O"
    assert board.uci(pychess_rs.Move.from_uci("e1h1")) == "e1h1"
    # uci(chess960=False) writes the king's destination instead.
    assert board.uci(pychess_rs.Move.from_uci("e1h1"), chess960=False) == "e1g1"


def test_variation_san():
    board = pychess_rs.Board()
    sans = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "O-O"]
    moves = []
    probe = board.copy()
    for san in sans:
        moves.append(probe.push_san(san))
    assert board.variation_san(moves) == "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O"
    assert board.fen() == pychess_rs.STARTING_FEN, "variation_san does not change the board"
    assert board.variation_san([]) == ""


def test_variation_san_from_black_to_move():
    board = pychess_rs.Board()
    board.push_san("e4")
    line = [pychess_rs.Move.from_uci("e7e5"), pychess_rs.Move.from_uci("g1f3")]
    assert board.variation_san(line) == "1...e5 2. Nf3"


def test_variation_san_rejects_an_illegal_move():
    board = pychess_rs.Board()
    with pytest.raises(pychess_rs.IllegalMoveError):
        board.variation_san([pychess_rs.Move.from_uci("e2e4"), pychess_rs.Move.from_uci("e2e4")])
    assert board.fen() == pychess_rs.STARTING_FEN


def test_san_of_a_game_matches_python_chess():
    # The Opera game (Morphy, 1858): captures, checks, castling, a mating finish.
    game = (
        "e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 Nc3 c6 Bg5 b5 Nxb5 cxb5 "
        "Bxb5+ Nbd7 O-O-O Rd8 Rxd7 Rxd7 Rd1 Qe6 Bxd7+ Nxd7 Qb8+ Nxb8 Rd8#"
    ).split()
    board = pychess_rs.Board()
    played = []
    for san in game:
        move = board.parse_san(san)
        assert board.san(move) == san
        played.append(board.push_san(san))
    assert board.is_checkmate()
    oracle = chess.Board()
    assert pychess_rs.Board().variation_san(played) == oracle.variation_san(
        [chess.Move.from_uci(m.uci()) for m in played]
    )


# --- reading: what python-chess's parse_san accepts ---------------------------------------


@pytest.mark.parametrize(
    ("fen", "text", "uci"),
    [
        (pychess_rs.STARTING_FEN, "e4", "e2e4"),
        (pychess_rs.STARTING_FEN, "Nf3", "g1f3"),
        (pychess_rs.STARTING_FEN, "Nf3+", "g1f3"),  # a wrong suffix is tolerated
        (pychess_rs.STARTING_FEN, "Nf3#", "g1f3"),
        (pychess_rs.STARTING_FEN, "Ngf3", "g1f3"),  # overspecified
        (pychess_rs.STARTING_FEN, "N1f3", "g1f3"),
        (pychess_rs.STARTING_FEN, "Ng1f3", "g1f3"),
        (pychess_rs.STARTING_FEN, "Ng1-f3", "g1f3"),  # long algebraic
        (pychess_rs.STARTING_FEN, "Nxf3", "g1f3"),  # an 'x' without a capture is tolerated
        (pychess_rs.STARTING_FEN, "e2e4", "e2e4"),  # fully specified pawn move
        (pychess_rs.STARTING_FEN, "e2-e4", "e2e4"),
        (CASTLING, "O-O", "e1g1"),
        (CASTLING, "0-0", "e1g1"),
        (CASTLING, "O-O+", "e1g1"),
        (CASTLING, "O-O-O", "e1c1"),
        (CASTLING, "0-0-0", "e1c1"),
        (CASTLING, "O-O-O#", "e1c1"),
        (CASTLING, "e1g1", "e1g1"),
        (CASTLING, "e1h1", "e1g1"),  # king takes rook, normalised in standard chess
        (PROMOTION, "e8=Q", "e7e8q"),
        (PROMOTION, "e8Q", "e7e8q"),
        (PROMOTION, "e8=q", "e7e8q"),
        (PROMOTION, "e8q", "e7e8q"),
        (PROMOTION, "e8=N", "e7e8n"),
        (PROMOTION, "e8N+", "e7e8n"),
        (PROMOTION, "exd8=R", "e7d8r"),
        (PROMOTION, "e7e8q", "e7e8q"),
        (PROMOTION, "e7d8b", "e7d8b"),
        (EP_FEN, "exf6", "e5f6"),  # en passant, no 'e.p.' marker
        (EP_FEN, "ef6", "e5f6"),
        (EP_FEN, "e5f6", "e5f6"),
        (TWO_KNIGHTS, "Nbd2", "b1d2"),
        (TWO_KNIGHTS, "Nfd2", "f1d2"),
        (TWO_KNIGHTS, "Nb1d2", "b1d2"),
        (THREE_QUEENS, "Qh4e1", "h4e1"),
        (THREE_QUEENS, "Q1e1", "h1e1"),
        (THREE_QUEENS, "Qee1", "e4e1"),
        (THREE_QUEENS, "Qh4xe1", "h4e1"),
        (PINNED_KNIGHT, "Ne2", "g1e2"),
        (PINNED_KNIGHT, "Nge2", "g1e2"),
    ],
)
def test_parse_san_accepts(fen, text, uci):
    oracle = chess.Board(fen)
    assert oracle.parse_san(text).uci() == uci, "the oracle agrees"
    board = pychess_rs.Board(fen)
    assert board.parse_san(text) == pychess_rs.Move.from_uci(uci)
    pushed = board.push_san(text)
    assert pushed == pychess_rs.Move.from_uci(uci)
    oracle.push_san(text)
    assert board.fen() == oracle.fen()


@pytest.mark.parametrize("text", ["--", "0000", "Z0", "@@@@"])
def test_parse_san_null_move_forms(text):
    assert chess.Board().parse_san(text) == chess.Move.null()
    assert pychess_rs.Board().parse_san(text) == pychess_rs.Move.null()


@pytest.mark.parametrize(
    ("fen", "text"),
    [
        (TWO_KNIGHTS, "Nd2"),
        (TWO_KNIGHTS, "N1d2"),  # both knights are on the first rank
        (TWO_KNIGHTS, "Nxd2"),
        (THREE_QUEENS, "Qe1"),
        (THREE_QUEENS, "Qhe1"),
        (THREE_QUEENS, "Q4e1"),
        ("4k3/8/8/8/8/R7/8/R3K3 w - - 0 1", "Ra2"),
    ],
)
def test_parse_san_rejects_ambiguous(fen, text):
    with pytest.raises(chess.AmbiguousMoveError):
        chess.Board(fen).parse_san(text)
    board = pychess_rs.Board(fen)
    with pytest.raises(pychess_rs.AmbiguousMoveError) as info:
        board.parse_san(text)
    assert isinstance(info.value, ValueError)
    assert text in str(info.value)
    with pytest.raises(pychess_rs.AmbiguousMoveError):
        board.push_san(text)
    assert board.fen() == chess.Board(fen).fen()


@pytest.mark.parametrize(
    ("fen", "text"),
    [
        (pychess_rs.STARTING_FEN, "e5"),
        (pychess_rs.STARTING_FEN, "Nf6"),  # not the side to move
        (pychess_rs.STARTING_FEN, "Ke2"),
        (pychess_rs.STARTING_FEN, "O-O"),
        (pychess_rs.STARTING_FEN, "0-0-0"),
        (pychess_rs.STARTING_FEN, "exd3"),
        (pychess_rs.STARTING_FEN, "Qd1d3"),
        (pychess_rs.STARTING_FEN, "Bb5"),
        (PROMOTION, "e8"),  # promotion piece missing
        (PROMOTION, "e7e8"),
        (PROMOTION, "e8=K"),
        (PINNED_KNIGHT, "Nce2"),  # the knight is pinned
        (EP_FEN, "exd6"),  # d6 is empty and not an en-passant square
        (EP_FEN, "fxe6"),
        (TWO_KNIGHTS, "Ncd2"),
        ("4k3/8/8/8/8/8/8/r3K2R w K - 0 1", "O-O"),  # in check
    ],
)
def test_parse_san_rejects_illegal(fen, text):
    with pytest.raises(chess.IllegalMoveError):
        chess.Board(fen).parse_san(text)
    board = pychess_rs.Board(fen)
    with pytest.raises(pychess_rs.IllegalMoveError) as info:
        board.parse_san(text)
    assert isinstance(info.value, ValueError)
    assert text in str(info.value)
    with pytest.raises(pychess_rs.IllegalMoveError):
        board.push_san(text)
    assert board.fen() == chess.Board(fen).fen()


@pytest.mark.parametrize(
    "text",
    [
        "",
        "garbage",
        "e9",
        "i4",
        "Pe4",
        "E4",
        "nf3",
        "e4!",
        "Nf3?",
        "e4 ",
        " e4",
        "o-o",
        "O-O-O-O",
        "e8=P",
        "Nf3x",
        "N",
        "x",
        "exf6e.p.",
    ],
)
def test_parse_san_rejects_garbage_as_invalid(text):
    with pytest.raises(chess.InvalidMoveError):
        chess.Board().parse_san(text)
    board = pychess_rs.Board()
    with pytest.raises(pychess_rs.InvalidMoveError) as info:
        board.parse_san(text)
    assert isinstance(info.value, ValueError)
    assert repr(text) in str(info.value) or text in str(info.value)
    with pytest.raises(pychess_rs.InvalidMoveError):
        board.push_san(text)
    assert board.fen() == pychess_rs.STARTING_FEN


# --- UCI ----------------------------------------------------------------------------------


def test_parse_uci_and_push_uci():
    board = pychess_rs.Board(PROMOTION)
    assert board.parse_uci("e7e8q") == pychess_rs.Move.from_uci("e7e8q")
    assert board.push_uci("e7d8n") == pychess_rs.Move.from_uci("e7d8n")
    assert board.piece_at(pychess_rs.D8) == pychess_rs.Piece.from_symbol("N")


@pytest.mark.parametrize(
    ("fen", "text"),
    [
        (pychess_rs.STARTING_FEN, "e2e5"),
        (pychess_rs.STARTING_FEN, "e7e5"),
        (pychess_rs.STARTING_FEN, "e1g1"),
        (PROMOTION, "e7e8"),  # missing promotion piece
        (pychess_rs.STARTING_FEN, "e2e4q"),  # promotion on a non-promoting move
        (pychess_rs.STARTING_FEN, "g1g3"),
    ],
)
def test_parse_uci_rejects_illegal(fen, text):
    board = pychess_rs.Board(fen)
    with pytest.raises(pychess_rs.IllegalMoveError) as info:
        board.parse_uci(text)
    assert text in str(info.value)
    with pytest.raises(pychess_rs.IllegalMoveError):
        board.push_uci(text)
    assert board.fen() == chess.Board(fen).fen()


@pytest.mark.parametrize("text", ["", "e2", "e2e9", "E2E4", "e2-e4", "e2e4x", "hello"])
def test_parse_uci_rejects_malformed(text):
    board = pychess_rs.Board()
    with pytest.raises(pychess_rs.InvalidMoveError):
        board.parse_uci(text)
    with pytest.raises(pychess_rs.InvalidMoveError):
        board.push_uci(text)
    assert board.fen() == pychess_rs.STARTING_FEN


def test_parse_uci_null_move():
    assert pychess_rs.Board().parse_uci("0000") == pychess_rs.Move.null()
