#!/usr/bin/env bash
# Screenshots of the example notebooks and of a plan graph in headless
# Chromium (Debian's chromium), checked for content (issue 20): every
# notebook converted to HTML with its saved outputs, and the SVG of
# `arepl plan --svg examples/figure4.fut`, each in a section of one page
# rendered in a single Chromium run (one browser start keeps this well
# under a minute); shotcheck then checks the picture's size and every
# section for drawn and coloured pixels. The screenshot is left in
# $SHOTS (default: a temporary directory) to be looked at.
#
#   bash jupyter/testdata/screenshots.sh ABSOLUTE_PATH_OF_AREPL
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=$1
shots=${SHOTS:-$(mktemp -d)}
mkdir -p "$shots"
width=1000 height=2000
/usr/bin/jupyter nbconvert --log-level=WARN --to html --template basic --output-dir "$shots" examples/*.ipynb
"$bin" plan --svg examples/figure4.fut >"$shots/figure4-plan.svg"
{
	echo '<!DOCTYPE html><html><head><meta charset="utf-8"><style>'
	echo "body{margin:0;background:#fff;font:14px sans-serif} section{height:${height}px;overflow:hidden;margin:0;padding:8px;box-sizing:border-box}"
	echo 'pre{white-space:pre-wrap;margin:2px 0} img,svg{max-width:980px;height:auto} .input_prompt,.output_prompt{display:none}'
	echo '.input_area{background:#f5f5f5}</style></head><body>'
} >"$shots/index.html"
sections=()
for nb in examples/*.ipynb; do
	name=$(basename "$nb" .ipynb)
	echo "<section>" >>"$shots/index.html"
	cat "$shots/$name.html" >>"$shots/index.html"
	echo "</section>" >>"$shots/index.html"
	# A notebook with pictures (SVG or PNG outputs) must show colour.
	if grep -q '"image/\(svg+xml\|png\|gif\)"' "$nb"; then
		sections+=("$name:colour")
	else
		sections+=("$name")
	fi
done
echo '<section><img src="figure4-plan.svg"></section></body></html>' >>"$shots/index.html"
sections+=("figure4-plan:colour")
total=$((height * ${#sections[@]}))
# Chromium's headless screenshot is of the window: as tall as the page.
timeout 120 /usr/bin/chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
	--user-data-dir="$shots/profile" --window-size="$width,$total" \
	--screenshot="$shots/notebooks.png" "file://$shots/index.html" >"$shots/chromium.log" 2>&1 ||
	{ cat "$shots/chromium.log" >&2; exit 1; }
go run ./jupyter/testdata/shotcheck "$shots/notebooks.png" "$width" "$height" "${sections[@]}"
echo "screenshots: $shots/notebooks.png"
