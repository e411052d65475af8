"""``pychess-rs gui`` in a real browser: headless Chromium driven by Selenium clicks through
whole games and reads the page (the indicators, the move list, the announced result).

These need Debian's ``chromium`` and ``chromium-driver`` (tools/test installs them where it
can) and skip with the reason otherwise. They run once per test run, on the source tree:
tools/test-wheels (which sets ``PYCHESS_RS_EXPECT_INSTALLED``) skips them on the installed
wheels. ``PYCHESS_RS_GUI_SCREENSHOT=docs/gui.png`` writes the README's screenshot.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

if os.environ.get("PYCHESS_RS_EXPECT_INSTALLED"):
    pytest.skip(
        "the browser tests run once, on the source tree (not again per installed wheel)",
        allow_module_level=True,
    )
pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
webdriver = pytest.importorskip("selenium.webdriver")

from selenium.common.exceptions import TimeoutException  # noqa: E402
from selenium.webdriver.chrome.options import Options  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

from pychess_rs.engine import Limit  # noqa: E402
from pychess_rs.gui.app import TOKEN_HEADER, create_app  # noqa: E402

TOKEN = "browser-test-token"
WAIT = 20.0


def _find(*names: str) -> str | None:
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    app = create_app(token=TOKEN, limit=Limit(depth=1))
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    instance = uvicorn.Server(config)
    thread = threading.Thread(target=instance.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not instance.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        instance.should_exit = True
        thread.join(10)
        sock.close()


@pytest.fixture(scope="module")
def driver() -> Iterator[WebDriver]:
    browser = _find("chromium", "chromium-browser", "google-chrome")
    chromedriver = _find("chromedriver")
    if browser is None or chromedriver is None:
        pytest.skip(
            "no chromium/chromedriver on PATH: install Debian's chromium and chromium-driver "
            "(tools/test does it as root) to run the browser tests"
        )
    options = Options()
    options.binary_location = browser
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--window-size=1280,900",
        "--force-device-scale-factor=1",
    ):
        options.add_argument(argument)
    chrome = webdriver.Chrome(service=Service(executable_path=chromedriver), options=options)
    try:
        yield chrome
    finally:
        chrome.quit()


@pytest.fixture
def page(server: str, driver: WebDriver) -> WebDriver:
    driver.get(f"{server}/?token={TOKEN}")
    wait(driver, lambda d: "game=" in d.current_url and squares(d))
    return driver


# ---- helpers ---------------------------------------------------------------------------------


def wait(driver: WebDriver, condition: Any, what: str = "") -> Any:
    try:
        return WebDriverWait(driver, WAIT, poll_frequency=0.02).until(condition)
    except TimeoutException:
        raise AssertionError(
            f"timed out waiting {what or condition}; status: {text(driver, 'status')!r}, "
            f"message: {text(driver, 'message')!r}"
        ) from None


def squares(driver: WebDriver) -> list[WebElement]:
    return driver.find_elements(By.CSS_SELECTOR, "#board .square")


def square(driver: WebDriver, name: str) -> WebElement:
    return driver.find_element(By.CSS_SELECTOR, f'#board .square[data-square="{name}"]')


def text(driver: WebDriver, element_id: str) -> str:
    # Read in one script run: the page redraws its elements, and a found element may be
    # gone by the time Selenium asks for its text.
    found = driver.execute_script(
        "const e = document.getElementById(arguments[0]); return e ? e.innerText : '';",
        element_id,
    )
    return str(found).strip()


def moves(driver: WebDriver) -> list[str]:
    return list(
        driver.execute_script(
            "return [...document.querySelectorAll('#moves .move')].map(e => e.textContent);"
        )
    )


def piece_on(driver: WebDriver, name: str) -> str | None:
    found = driver.execute_script(
        "const p = document.querySelector(`#board .square[data-square='${arguments[0]}'] .piece`);"
        "return p ? p.dataset.piece : null;",
        name,
    )
    return None if found is None else str(found)


def corners(driver: WebDriver) -> list[str]:
    """The squares drawn top left and bottom right."""
    return list(
        driver.execute_script(
            "const s = document.querySelectorAll('#board .square');"
            "return [s[0].dataset.square, s[s.length - 1].dataset.square];"
        )
    )


def _squares_where(driver: WebDriver, selector: str) -> set[str]:
    found = driver.execute_script(
        "return [...document.querySelectorAll('#board .square')]"
        ".filter(s => s.matches(arguments[0]) || s.querySelector(arguments[0]))"
        ".map(s => s.dataset.square);",
        selector,
    )
    return set(found)


def marked(driver: WebDriver, css_class: str) -> set[str]:
    """The squares drawn with ``css_class`` (last-move, check, selected)."""
    return _squares_where(driver, f".{css_class}:not(.square *)")


def targets(driver: WebDriver, mark: str) -> set[str]:
    """The squares holding a ``dot`` (a quiet move) or a ``ring`` (a capture)."""
    return _squares_where(driver, f".square > .{mark}")


def click_move(driver: WebDriver, origin: str, target: str, *, replies: int = 0) -> None:
    """Clicks ``origin`` then ``target`` and waits for the move (and the engine's
    ``replies``) to reach the move list."""
    before = len(moves(driver))
    square(driver, origin).click()
    wait(driver, lambda d: origin in marked(d, "selected"), f"{origin} to be selected")
    square(driver, target).click()
    wait(driver, lambda d: len(moves(d)) == before + 1 + replies, f"the move {origin}{target}")


def new_game(
    driver: WebDriver,
    opponent: str = "human",
    level: str = "1",
    fen: str = "",
    variant: str = "chess",
) -> None:
    game = driver.current_url
    driver.find_element(By.ID, "new-game").click()
    Select(driver.find_element(By.ID, "opponent")).select_by_value(opponent)
    Select(driver.find_element(By.ID, "level")).select_by_value(level)
    Select(driver.find_element(By.ID, "variant")).select_by_value(variant)
    box = driver.find_element(By.ID, "fen")
    box.clear()
    if fen:
        box.send_keys(fen)
    driver.find_element(By.ID, "start").click()
    wait(driver, lambda d: d.current_url != game and not moves(d), "the new game")


def api(server: str, path: str) -> Any:
    request = urllib.request.Request(f"{server}{path}", headers={TOKEN_HEADER: TOKEN})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def game_id(driver: WebDriver) -> str:
    return str(driver.current_url.split("game=", 1)[1].split("&", 1)[0])


# ---- the games -------------------------------------------------------------------------------


def test_fools_mate_with_every_indicator(page: WebDriver) -> None:
    driver = page
    new_game(driver)
    assert len(squares(driver)) == 64
    assert piece_on(driver, "e1") == "K" and piece_on(driver, "d8") == "q"
    assert "White to move" in text(driver, "status")
    # A selected piece: grey dots where it can go, nothing else.
    square(driver, "g1").click()
    wait(driver, lambda d: targets(d, "dot") == {"f3", "h3"}, "the knight's dots")
    assert marked(driver, "selected") == {"g1"} and not targets(driver, "ring")
    square(driver, "g1").click()
    wait(driver, lambda d: not targets(d, "dot"), "the selection to clear")
    click_move(driver, "f2", "f3")
    assert marked(driver, "last-move") == {"f2", "f3"}
    click_move(driver, "e7", "e5")
    click_move(driver, "g2", "g4")
    square(driver, "d8").click()
    wait(driver, lambda d: "h4" in targets(d, "dot"), "the queen's dots")
    assert targets(driver, "dot") == {"e7", "f6", "g5", "h4"}
    # The last move is also typed in SAN (the selection is dropped by the move).
    box = driver.find_element(By.ID, "move-input")
    box.send_keys("Qh4", Keys.ENTER)
    wait(driver, lambda d: len(moves(d)) == 4, "the typed move")
    assert moves(driver) == ["f3", "e5", "g4", "Qh4#"]
    current = driver.find_elements(By.CSS_SELECTOR, "#moves .move.current")
    assert [e.text for e in current] == ["Qh4#"]
    assert marked(driver, "last-move") == {"d8", "h4"}
    assert marked(driver, "check") == {"e1"}
    wait(driver, lambda d: d.find_element(By.ID, "result").is_displayed(), "the result")
    assert text(driver, "result") == "Checkmate: Black wins (0-1)."
    assert text(driver, "status") == "Game over. Checkmate: Black wins (0-1)."
    # The game is over: clicks select nothing.
    square(driver, "e1").click()
    assert not marked(driver, "selected")
    # No script error, blocked resource or failed request on the way.
    assert [e for e in driver.get_log("browser") if e["level"] == "SEVERE"] == []


def test_promotion_with_the_chooser(page: WebDriver) -> None:
    driver = page
    new_game(driver, fen="4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
    square(driver, "b7").click()
    wait(driver, lambda d: targets(d, "dot") == {"b8"}, "the pawn's dot")
    square(driver, "b8").click()
    chooser = driver.find_element(By.ID, "promotion")
    wait(driver, lambda d: chooser.is_displayed(), "the promotion chooser")
    choices = driver.find_elements(By.CSS_SELECTOR, "#promotion button.choice")
    assert [c.get_attribute("data-promotion") for c in choices] == ["q", "r", "b", "n"]
    # Cancelling plays nothing; the second time a knight is chosen.
    driver.find_element(By.ID, "promotion-cancel").click()
    assert not chooser.is_displayed() and moves(driver) == []
    square(driver, "b7").click()
    wait(driver, lambda d: "b7" in marked(d, "selected"))
    square(driver, "b8").click()
    wait(driver, lambda d: chooser.is_displayed())
    driver.find_element(By.CSS_SELECTOR, '#promotion button[data-promotion="n"]').click()
    wait(driver, lambda d: moves(d) == ["b8=N"], "the promotion")
    assert piece_on(driver, "b8") == "N" and not chooser.is_displayed()


def pocket(driver: WebDriver, edge: str) -> list[tuple[str, str, bool]]:
    """The pieces in hand drawn on the board's ``edge`` (top, bottom): (piece, count,
    clickable)."""
    found = driver.execute_script(
        "const box = document.getElementById('pocket-' + arguments[0]);"
        "if (box.hidden) return null;"
        "return [...box.querySelectorAll('.pocket-piece')]"
        ".map(b => [b.dataset.piece, b.querySelector('.count').textContent, !b.disabled]);",
        edge,
    )
    return [] if found is None else [tuple(item) for item in found]


def test_crazyhouse_drop_from_the_pocket(page: WebDriver) -> None:
    driver = page
    new_game(driver, variant="crazyhouse", fen="4k3/8/8/8/8/8/8/4K3[NNp] w - - 0 1")
    wait(driver, lambda d: pocket(d, "bottom") == [("N", "2", True)], "White's pocket")
    assert pocket(driver, "top") == [("p", "1", False)]
    driver.find_element(By.CSS_SELECTOR, '#pocket-bottom .pocket-piece[data-piece="N"]').click()
    # Every empty square is a target of the knight in hand.
    wait(driver, lambda d: len(targets(d, "dot")) == 62, "the drop squares")
    assert "e1" not in targets(driver, "dot") and "d4" in targets(driver, "dot")
    square(driver, "d4").click()
    wait(driver, lambda d: moves(d) == ["N@d4"], "the drop")
    assert piece_on(driver, "d4") == "N"
    wait(driver, lambda d: pocket(d, "bottom") == [("N", "1", False)], "one knight left")
    # Black's pawn goes on any of the 61 empty squares but the 14 of the first and last ranks.
    driver.find_element(By.CSS_SELECTOR, '#pocket-top .pocket-piece[data-piece="p"]').click()
    wait(driver, lambda d: len(targets(d, "dot")) == 47, "the pawn's drop squares")
    assert not {"a1", "h8"} & targets(driver, "dot")
    # A second click puts the piece back.
    driver.find_element(By.CSS_SELECTOR, '#pocket-top .pocket-piece[data-piece="p"]').click()
    wait(driver, lambda d: not targets(d, "dot"), "no targets")


def test_castling_both_ways(page: WebDriver) -> None:
    driver = page
    new_game(driver, fen="r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1")
    square(driver, "e1").click()
    wait(driver, lambda d: targets(d, "dot") == {"d1", "f1", "c1", "g1"}, "the king's moves")
    square(driver, "g1").click()
    wait(driver, lambda d: moves(d) == ["O-O"], "short castling")
    assert piece_on(driver, "g1") == "K" and piece_on(driver, "f1") == "R"
    assert piece_on(driver, "h1") is None
    assert marked(driver, "last-move") == {"e1", "g1"}
    click_move(driver, "e8", "c8")
    assert moves(driver) == ["O-O", "O-O-O"]
    assert piece_on(driver, "c8") == "k" and piece_on(driver, "d8") == "r"
    # Flipped, the board shows h1 top left and a8 bottom right, and the pieces stay put.
    assert corners(driver) == ["a8", "h1"]
    driver.find_element(By.ID, "flip").click()
    wait(driver, lambda d: corners(d) == ["h1", "a8"], "the flip")
    assert piece_on(driver, "c8") == "k" and text(driver, "player-top") == "White: Human"


def test_en_passant_and_undo(page: WebDriver) -> None:
    driver = page
    new_game(driver)
    for origin, target in [("e2", "e4"), ("a7", "a6"), ("e4", "e5"), ("d7", "d5")]:
        click_move(driver, origin, target)
    square(driver, "e5").click()
    # En passant is a capture: a ring on d6 (the square the pawn goes to), a dot on e6.
    wait(driver, lambda d: targets(d, "ring") == {"d6"}, "the en passant ring")
    assert targets(driver, "dot") == {"e6"}
    square(driver, "d6").click()
    wait(driver, lambda d: len(moves(d)) == 5, "en passant")
    assert moves(driver)[-1] == "exd6"
    assert piece_on(driver, "d5") is None and piece_on(driver, "d6") == "P"
    driver.find_element(By.ID, "undo").click()
    wait(driver, lambda d: len(moves(d)) == 4, "the undo")
    assert piece_on(driver, "d5") == "p" and piece_on(driver, "e5") == "P"
    assert piece_on(driver, "d6") is None
    assert text(driver, "message") == "took back exd6"
    assert marked(driver, "last-move") == {"d7", "d5"}


def test_draw_offer_accepted_by_the_human_opponent(page: WebDriver) -> None:
    driver = page
    new_game(driver)
    click_move(driver, "e2", "e4")
    driver.find_element(By.ID, "offer-draw").click()
    offer = driver.find_element(By.ID, "offer")
    wait(driver, lambda d: offer.is_displayed(), "the offer")
    assert text(driver, "offer-text") == "Black offers a draw. White, do you accept?"
    driver.find_element(By.ID, "accept-draw").click()
    wait(driver, lambda d: d.find_element(By.ID, "result").is_displayed(), "the result")
    assert text(driver, "result") == "Draw by agreement (1/2-1/2)."
    assert not offer.is_displayed()


def test_resignation(page: WebDriver) -> None:
    driver = page
    new_game(driver)
    click_move(driver, "d2", "d4")
    resign = driver.find_element(By.ID, "resign")
    resign.click()
    assert resign.text == "Really resign?"
    resign.click()
    wait(driver, lambda d: d.find_element(By.ID, "result").is_displayed(), "the result")
    assert text(driver, "result") == "Black resigns: White wins (1-0)."
    assert resign.get_attribute("disabled") is not None


def test_a_short_game_against_the_engine_survives_a_reload(server: str, page: WebDriver) -> None:
    driver = page
    new_game(driver, opponent="engine-black", level="1")
    labels = text(driver, "player-top")
    assert labels.startswith("Black: pychess-rs") and "level 1" in labels
    for _ in range(3):
        # Any legal move of the position (from the server), played with two clicks.
        state = api(server, f"/api/games/{game_id(driver)}")
        quiet = [m for m in state["legal"] if m["promotion"] is None]
        choice = quiet[len(state["moves"]) % len(quiet)]
        names = "abcdefgh"
        origin = f"{names[choice['from'] % 8]}{choice['from'] // 8 + 1}"
        target = f"{names[choice['to'] % 8]}{choice['to'] // 8 + 1}"
        click_move(driver, origin, target, replies=1)
        assert "White to move" in text(driver, "status") or text(driver, "result")
        if text(driver, "result"):
            break
    played = moves(driver)
    assert len(played) >= 2 and len(played) % 2 == 0
    reply = api(server, f"/api/games/{game_id(driver)}")["last_move"]
    assert len(marked(driver, "last-move")) == 2 and reply is not None
    # A reload brings the same game back.
    url = driver.current_url
    driver.refresh()
    wait(driver, lambda d: moves(d) == played, "the game after the reload")
    assert driver.current_url == url
    # Undo against the engine takes back its reply and the move before it.
    driver.find_element(By.ID, "undo").click()
    wait(driver, lambda d: len(moves(d)) == len(played) - 2, "the undo")


def test_drag_and_drop(page: WebDriver) -> None:
    driver = page
    new_game(driver)

    def drag(origin: str, target: str) -> None:
        ActionChains(driver).click_and_hold(square(driver, origin)).move_by_offset(
            10, -10
        ).move_to_element(square(driver, target)).release().perform()

    drag("e2", "e4")
    wait(driver, lambda d: moves(d) == ["e4"], "the dragged move")
    assert piece_on(driver, "e4") == "P" and marked(driver, "last-move") == {"e2", "e4"}
    # Dropped where no move goes: nothing is played, the piece stays selected and a click
    # on a target then plays it.
    drag("g8", "g5")
    wait(driver, lambda d: marked(d, "selected") == {"g8"}, "the selection after the drop")
    assert moves(driver) == ["e4"] and piece_on(driver, "g8") == "n"
    assert not driver.find_elements(By.CSS_SELECTOR, ".ghost")
    square(driver, "f6").click()
    wait(driver, lambda d: moves(d) == ["e4", "Nf6"], "the click after the drop")


def test_two_tabs_play_two_games(server: str, page: WebDriver) -> None:
    driver = page
    new_game(driver)
    click_move(driver, "e2", "e4")
    first = driver.current_window_handle
    first_url = driver.current_url
    driver.switch_to.new_window("tab")
    try:
        driver.get(f"{server}/?token={TOKEN}")
        wait(driver, lambda d: "game=" in d.current_url and squares(d), "the second tab's game")
        assert game_id(driver) not in first_url
        new_game(driver)
        click_move(driver, "d2", "d4")
        click_move(driver, "d7", "d5")
    finally:
        driver.close()
        driver.switch_to.window(first)
    driver.refresh()
    wait(driver, lambda d: moves(d) == ["e4"], "the first tab's game after a reload")
    assert driver.current_url == first_url


def test_screenshot(page: WebDriver, tmp_path: Path) -> None:
    # A game in progress with a check and a selected piece, for the README.
    driver = page
    new_game(driver)
    for origin, target in [("e2", "e4"), ("e7", "e5"), ("f1", "c4"), ("g8", "f6"), ("c4", "f7")]:
        click_move(driver, origin, target)
    square(driver, "e8").click()
    wait(driver, lambda d: targets(d, "ring") == {"f7"} and targets(d, "dot") == {"e7"})
    assert marked(driver, "check") == {"e8"} and marked(driver, "selected") == {"e8"}
    assert "Check!" in text(driver, "status")
    destination = Path(os.environ.get("PYCHESS_RS_GUI_SCREENSHOT") or tmp_path / "gui.png")
    assert driver.save_screenshot(str(destination))
    assert destination.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
