#!/usr/bin/env bash
# Extract every face's texts into the one catalog and merge them into each language's .po.
# Then fill in the new msgstr entries (the test suite fails on any left empty or fuzzy).
set -euo pipefail
cd "$(dirname "$0")/.."
LOC=src/corazones/i18n/locale
python3 -m babel.messages.frontend extract -F babel.cfg --no-location --sort-output \
    --project corazones --copyright-holder "Corazones contributors" -o "$LOC/corazones.pot" .
for po in "$LOC"/*/LC_MESSAGES/corazones.po; do
    lang=$(basename "$(dirname "$(dirname "$po")")")
    python3 -m babel.messages.frontend update -i "$LOC/corazones.pot" -d "$LOC" -D corazones -l "$lang" --no-fuzzy-matching --ignore-obsolete
done
