#!/usr/bin/env bash
# Make sure rustfmt and clippy are available to cargo; add them with rustup
# when they are not. Quiet when they are already there.
set -euo pipefail

need=()
cargo fmt --version >/dev/null 2>&1 || need+=(rustfmt)
cargo clippy --version >/dev/null 2>&1 || need+=(clippy)

if [[ ${#need[@]} -eq 0 ]]; then
    exit 0
fi

if ! command -v rustup >/dev/null 2>&1; then
    echo "rust-tools: ${need[*]} missing and rustup is not available to add them" >&2
    exit 1
fi

if ! out=$(rustup component add "${need[@]}" 2>&1); then
    echo "$out" >&2
    echo "rust-tools: could not add ${need[*]}" >&2
    exit 1
fi
