"""Messages of the terminal faces in English and Spanish."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "welcome": "Corazones — {preset}, {players} players, seed {seed}. You are {you}.",
        "dealer": "Hand {hand}: {dealer} deals. Pass: {direction}.",
        "your_hand": "Your hand: {cards}",
        "ask_pass": "Pass {count} cards to {to} (e.g. QS AH 10H): ",
        "received": "You received from {who}: {cards}",
        "ask_play": "Trick {trick} {table}\nYour play ({legal}): ",
        "ask_bid": "High bid {high}. Your bid in chips (0 = pass, up to {cap}): ",
        "ask_declare": "You won the auction. Name the penalty suit (C, D, S, H): ",
        "ask_moon": "You shot the moon! Type 's' to subtract {total} from yourself, 'a' to add {total} to the others: ",
        "bad": "Not accepted: {error}",
        "game_over": "Game over. Winner(s): {winners}. Scores: {scores}",
        "saved": "Record written to {path}",
        "bye": "Game interrupted; nothing was saved.",
    },
    "es": {
        "welcome": "Corazones — {preset}, {players} jugadores, semilla {seed}. Usted es {you}.",
        "dealer": "Mano {hand}: reparte {dealer}. Pase: {direction}.",
        "your_hand": "Su mano: {cards}",
        "ask_pass": "Pase {count} cartas a {to} (p. ej. QS AH 10H): ",
        "received": "Recibió de {who}: {cards}",
        "ask_play": "Baza {trick} {table}\nSu jugada ({legal}): ",
        "ask_bid": "Puja más alta {high}. Su puja en fichas (0 = paso, hasta {cap}): ",
        "ask_declare": "Ganó la subasta. Nombre el palo de penalización (C, D, S, H): ",
        "ask_moon": "¡Cazó la luna! Escriba 's' para restarse {total}, 'a' para sumar {total} a los demás: ",
        "bad": "No aceptado: {error}",
        "game_over": "Fin de la partida. Gana(n): {winners}. Puntos: {scores}",
        "saved": "Registro guardado en {path}",
        "bye": "Partida interrumpida; no se guardó nada.",
    },
}


def t(lang: str, key: str, **kw: object) -> str:
    table = MESSAGES.get(lang, MESSAGES["en"])
    return table[key].format(**kw)
