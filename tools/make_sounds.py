"""Make the app's own sounds for the count, the reveal, "your turn" and a refusal: short tones, written as small
WAV files in static/sounds (8-bit mono, 11,025 samples a second). Run it again after changing a tone."""

from __future__ import annotations

import math
import wave
from pathlib import Path

RATE = 11_025
SOUNDS = Path(__file__).resolve().parent.parent / "static" / "sounds"

# Each sound: its notes as (frequency in Hz, seconds); a falling tone is a bell, a flat one a buzz.
TONES: dict[str, tuple[tuple[float, float], ...]] = {
    "yo": ((392.0, 0.16),),  # G4: the first word of the count
    "ho": ((523.3, 0.16),),  # C5: the second and third
    "reveal": ((523.3, 0.09), (659.3, 0.09), (784.0, 0.22)),  # C-E-G: the bids show
    "turn": ((659.3, 0.11), (880.0, 0.18)),  # a rising call: your turn
    "refused": ((196.0, 0.28),),  # a low buzz: refused
}


def samples(tones: tuple[tuple[float, float], ...], buzz: bool) -> bytes:
    """8-bit samples of the notes in turn, each faded in and out so it starts and ends without a click."""
    out = bytearray()
    for frequency, seconds in tones:
        count = int(RATE * seconds)
        for i in range(count):
            fade = min(1.0, i / (RATE * 0.005), (count - i) / (RATE * 0.03))
            wave_at = math.sin(2 * math.pi * frequency * i / RATE)
            value = (1 if wave_at >= 0 else -1) * 0.35 if buzz else wave_at * math.exp(-3 * i / count)
            out.append(int(128 + 110 * fade * value))
    return bytes(out)


def main() -> None:
    """Write every sound."""
    SOUNDS.mkdir(parents=True, exist_ok=True)
    for name, tones in TONES.items():
        with wave.open(str(SOUNDS / f"{name}.wav"), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(1)
            out.setframerate(RATE)
            out.writeframes(samples(tones, buzz=name == "refused"))


if __name__ == "__main__":
    main()
