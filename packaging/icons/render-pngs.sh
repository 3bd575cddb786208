#!/bin/sh
# Renders the hicolor PNGs from the SVG mark. The PNGs are committed so that
# building gapscope needs no SVG renderer; run this after editing the SVG
# (needs rsvg-convert: apt-get install librsvg2-bin).
set -eu
cd "$(dirname "$0")"
id=io.github.gapscope.Gapscope
for size in 16 32 48 64 128 256; do
  mkdir -p "${size}x${size}"
  rsvg-convert --width "$size" --height "$size" "$id.svg" --output "${size}x${size}/$id.png"
done
