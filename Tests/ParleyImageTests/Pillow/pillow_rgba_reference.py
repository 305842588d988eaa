#!/usr/bin/env python3
"""Writes Pillow's RGBA8 decode of every decodable sample in the shared image corpus (the first
frame; the largest ICO entry), for PillowAgreementTests (an independent decoder to compare
against; Pillow is not a test dependency).

    pip install pillow
    python3 Tests/ParleyImageTests/Pillow/pillow_rgba_reference.py ../shared/corpora/image /tmp/pillow-rgba
    PARLEY_PILLOW_RGBA=/tmp/pillow-rgba swift test --filter PillowAgreementTests

Pillow keeps 16-bit gray as mode I;16 (convert("RGBA") would clip it), so those samples are
reduced to their high byte here, as 16-bit RGB(A) already is by Pillow itself.
"""
import json
import os
import sys

from PIL import Image

corpus, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
manifest = json.load(open(os.path.join(corpus, "manifest.json")))["files"]
written = 0
for path, entry in sorted(manifest.items()):
    if entry.get("expect") != "decode":
        continue
    with Image.open(os.path.join(corpus, path)) as im:
        if im.format == "ICO":
            im.size = max(im.info["sizes"], key=lambda s: s[0] * s[1])
        im.load()
        if im.mode in ("I;16", "I;16B", "I"):
            raw = im.tobytes("raw", "I;16B") if im.mode != "I" else im.convert("I;16B").tobytes()
            high = bytes(raw[0::2])
            gray = Image.frombytes("L", im.size, high)
            if "transparency" in im.info:
                t = im.info["transparency"]
                alpha = Image.frombytes("L", im.size, bytes(0 if (raw[i] << 8 | raw[i + 1]) == t else 255
                                                            for i in range(0, len(raw), 2)))
                rgba = Image.merge("RGBA", (gray, gray, gray, alpha))
            else:
                rgba = gray.convert("RGBA")
        else:
            rgba = im.convert("RGBA")
    with open(os.path.join(out, path.replace("/", "__") + ".rgba"), "wb") as f:
        f.write(rgba.tobytes())
    written += 1
print(f"wrote {written} RGBA8 references with Pillow {Image.__version__ if hasattr(Image, '__version__') else ''}")
