#!/usr/bin/env bash
# Packs the app as built here (the screenshot tool, which drives the main
# window) with the libraries it loads, Qt's offscreen platform plugin and
# one font, for the GPU machine, which has no Qt (docs/performance.md, "The
# 10 GB trace in the app itself"). Run here after building with the GUI on;
# writes .deps/app/apppay.tar.xz (.deps is ignored by git; the device
# tool carries it) for gpu/tools/app_on_device.sh.
#   BUILD=build gpu/tools/pack_app_for_device.sh
set -eu -o pipefail
BUILD=${BUILD:-build}
TOOL=$BUILD/tests/app/gapscope_screenshots
PLUGIN=$(qtpaths6 --query QT_INSTALL_PLUGINS 2>/dev/null || echo /usr/lib/x86_64-linux-gnu/qt6/plugins)/platforms/libqoffscreen.so
STAGE=$(mktemp -d)/apppay
mkdir -p "$STAGE/bin" "$STAGE/lib" "$STAGE/plugins/platforms" "$STAGE/fonts" .deps/app
strip -o "$STAGE/bin/gapscope_screenshots" "$TOOL"
strip -o "$STAGE/bin/gapscope-gen-trace" "$BUILD/bench/load/gapscope-gen-trace"
strip -o "$STAGE/bin/gapscope-bench-load" "$BUILD/bench/load/gapscope-bench-load"
cp "$PLUGIN" "$STAGE/plugins/platforms/"
# Every library the tool and the plugin load, but the C and C++ runtimes
# and zlib: the GPU machine's own are newer and compatible.
for lib in $( (ldd "$TOOL"; ldd "$PLUGIN") | awk '$3 ~ /^\// {print $3}' | sort -u); do
  case $(basename "$lib") in
    libc.so*|libm.so*|libstdc++*|libgcc_s*|libz.so*) ;;
    *) cp -L "$lib" "$STAGE/lib/" ;;
  esac
done
cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf "$STAGE/fonts/"
# Paths as the device's script unpacks them (/tmp/apppay).
cat > "$STAGE/fonts.conf" <<'CONF'
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>/tmp/apppay/fonts</dir>
  <cachedir>/tmp/apppay/fontcache</cachedir>
</fontconfig>
CONF
tar -cJf .deps/app/apppay.tar.xz -C "$(dirname "$STAGE")" apppay
rm -rf "$(dirname "$STAGE")"
ls -la .deps/app/apppay.tar.xz
