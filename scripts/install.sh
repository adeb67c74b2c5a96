#!/usr/bin/env bash
# Install mpbridge into PREFIX:
#
#   PREFIX/lib/libmpbridge.so            the one shared library
#   PREFIX/lib/lib{pvm3,gpvm3,...}.so*   drop-in names, relative links to it
#   PREFIX/lib/libmpbridge_loopback.so   preloaded into one-machine mpiexec (loopback only)
#   PREFIX/lib/pkgconfig/*.pc            mpbridge, pvm3, tcgmsg, ga, express
#   PREFIX/include/                      every header of cbindings/include
#   PREFIX/bin/mpbridge                  launcher and doctor
#   PREFIX/bin/mpbridge-ens-loader       the Ensemble PVM loader (run by mpbridge)
#   PREFIX/bin/ga-server                 Global Arrays data server
#   PREFIX/share/mpbridge/               examples
#   PREFIX/share/mpbridge/ensemble/      Ensemble Get-Maximum components (C
#                                        sources, with a Makefile that builds
#                                        them through pkg-config) and example
#                                        compositions (examples/ and
#                                        examples/published/)
#
# Usage: scripts/install.sh PREFIX
#
# Environment:
#   DESTDIR               staging root for packaging: files go to
#                         $DESTDIR$PREFIX, while .pc files name PREFIX
#   MPBRIDGE_BUILD_DIR    where the built files are (default target/release)
#   MPBRIDGE_SOURCE_DIR   source tree (default: the one holding this script)
set -euo pipefail

die() {
    echo "install: $*" >&2
    exit 1
}

[[ $# -eq 1 && -n "$1" ]] || die "usage: $0 PREFIX"

SRC=${MPBRIDGE_SOURCE_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
BUILD=${MPBRIDGE_BUILD_DIR:-$SRC/target/release}
DESTDIR=${DESTDIR:-}

# The prefix recorded in .pc files must be absolute.
PREFIX=$1
case "$PREFIX" in
    /*) ;;
    *) PREFIX=$(pwd)/$PREFIX ;;
esac
PREFIX=${PREFIX%/}
[[ -n "$PREFIX" ]] || PREFIX=/
DEST=$DESTDIR$PREFIX

LIBRARY=$BUILD/libmpbridge.so
LAUNCHER=$BUILD/mpbridge
[[ -f "$LIBRARY" ]] || die "$LIBRARY not found: it is built by the cbindings crate (cdylib 'mpbridge'); run 'make build' (cargo build --release) first"
[[ -x "$LAUNCHER" ]] || die "$LAUNCHER not found: build it first with 'make build' (cargo build --release)"
[[ -d "$SRC/cbindings/include" ]] || die "$SRC/cbindings/include not found"

VERSION=$(sed -n '/^\[workspace\.package\]/,/^\[/ s/^version *= *"\([^"]*\)".*/\1/p' "$SRC/Cargo.toml" | head -n 1)
[[ -n "$VERSION" ]] || die "cannot read the workspace version from $SRC/Cargo.toml"

install -d "$DEST/bin" "$DEST/lib/pkgconfig" "$DEST/include" "$DEST/share/mpbridge"

# Library and its drop-in names. Every name is the same file, so a process
# that loads several of them still has one copy of the backend.
install -m 0755 "$LIBRARY" "$DEST/lib/libmpbridge.so"
DROP_INS=(
    libpvm3.so.3 libpvm3.so
    libgpvm3.so.3 libgpvm3.so
    libfpvm3.so
    libtcgmsg.so
    libexpress.so
    libga.so
    libpvm_shim.so
)
for name in "${DROP_INS[@]}"; do
    ln -sfn libmpbridge.so "$DEST/lib/$name"
done

# Preloaded into a one-machine job's mpiexec by 'mpbridge run' so the
# launcher listens on loopback only (cli/src/loopback_preload.rs).
[[ -f "$BUILD/libmpbridge_loopback.so" ]] || die "$BUILD/libmpbridge_loopback.so not found: build it first with 'make build'"
install -m 0755 "$BUILD/libmpbridge_loopback.so" "$DEST/lib/libmpbridge_loopback.so"

# Headers: the whole directory, so headers added later install too.
cp -R "$SRC/cbindings/include/." "$DEST/include/"

# pkg-config files from the templates.
escape() { printf '%s' "$1" | sed 's/[\\|&]/\\&/g'; }
prefix_sed=$(escape "$PREFIX")
version_sed=$(escape "$VERSION")
shopt -s nullglob
templates=("$SRC"/pkgconfig/*.pc.in)
[[ ${#templates[@]} -gt 0 ]] || die "no templates in $SRC/pkgconfig"
for template in "${templates[@]}"; do
    out=$DEST/lib/pkgconfig/$(basename "$template" .in)
    sed -e "s|@PREFIX@|$prefix_sed|g" -e "s|@VERSION@|$version_sed|g" "$template" >"$out"
    chmod 0644 "$out"
done

# Programs.
install -m 0755 "$LAUNCHER" "$DEST/bin/mpbridge"
[[ -x "$BUILD/mpbridge-ens-loader" ]] || die "$BUILD/mpbridge-ens-loader not found: build it first with 'make build'"
install -m 0755 "$BUILD/mpbridge-ens-loader" "$DEST/bin/mpbridge-ens-loader"
if [[ -x "$BUILD/ga-server" ]]; then
    install -m 0755 "$BUILD/ga-server" "$DEST/bin/ga-server"
fi

# Ensemble examples (examples/ensemble): the Get-Maximum components with
# the Makefile that builds them (mpicc and pkg-config, against this
# installation), and the compositions.
ENS=$SRC/examples/ensemble
install -d "$DEST/share/mpbridge/ensemble"
install -m 0644 "$ENS"/*.c "$ENS/Makefile" "$DEST/share/mpbridge/ensemble/"
for dir in "$ENS/compositions" "$ENS/compositions/published"; do
    for f in "$dir"/*.ens; do
        [[ -e "$f" ]] || continue
        sub=${dir#"$ENS/compositions"}
        install -d "$DEST/share/mpbridge/ensemble/examples$sub"
        install -m 0644 "$f" "$DEST/share/mpbridge/ensemble/examples$sub/"
    done
done

echo "install: mpbridge $VERSION installed into $DEST"
