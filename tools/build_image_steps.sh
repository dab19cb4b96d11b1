#!/bin/sh
# The build-time steps of the Docker image (Dockerfile, builder stage), kept in one script so they can be run and
# tested without Docker: `sh tools/build_image_steps.sh` in a checkout (tests/deploy/test_image_steps.py runs it
# in a copy). Everything a container would otherwise do at start-up is done once here, so a node starts in
# seconds and every replica serves the same files:
#   1. the compiled move generator (backgammon/compiled_moves.*.so); in the image a missing compiler is an
#      error, not the slow pure Python fallback `make install` accepts;
#   2. the translations (.mo files beside each .po);
#   3. the hashed, compressed static files (STATIC_ROOT, served by WhiteNoise from every node).
# PYTHON chooses the interpreter (default: python). Needs no database, broker or secret.
set -eu
PYTHON=${PYTHON:-python}
cd "$(dirname "$0")/.."

"$PYTHON" tools/build_movegen.py
"$PYTHON" -c "import backgammon.compiled_moves" || {
  echo "build_image_steps: the compiled move generator did not build (is a C compiler installed?)" >&2
  exit 1
}
DEBUG=1 "$PYTHON" manage.py compile_translations
# collectstatic reads settings with DEBUG off (the manifest storage); a throwaway key only to start Django:
# nothing is signed at build time and the key never reaches the image's environment.
DEBUG=0 STATIC_MANIFEST=1 SECRET_KEY=image-build-only-not-a-secret DATABASE_URL=sqlite:///:memory: \
  "$PYTHON" manage.py collectstatic --noinput --verbosity 0
echo "build_image_steps: move generator, translations and static files built"
