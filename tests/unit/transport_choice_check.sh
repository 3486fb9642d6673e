#!/bin/bash
# Guard: host/transport/select.cpp alone reads GIO_TRANSPORT, and only the transport interface and
# the transports' own folders test which transport a peer has; everything else in host/ calls
# through the tables (host/transport/transport.h). Prints each offending line and fails.
# Usage: transport_choice_check.sh SOURCE_DIR
cd "${1:?source dir}" || exit 2
# Comparisons with a transport id other than NONE (reachability is not a choice), switches on a
# peer's transport, and any read of the setting.
pattern='[!=]= *GIO_TRANSPORT_(P2P|GDA|PROXY)\b|GIO_TRANSPORT_(P2P|GDA|PROXY) *[!=]=|case GIO_TRANSPORT_|switch *\(.*transport'
hits=$(grep -rnE "$pattern" host --include='*.cpp' --include='*.h' |
       grep -vE '^host/(transport|p2p|gda|proxy)/' |
       grep -vE '^host/transport/select\.cpp:')
readers=$(grep -rnE '\.GIO_TRANSPORT\b' host --include='*.cpp' --include='*.h' |
          grep -v '^host/transport/select\.cpp:')
if [[ -n $hits || -n $readers ]]; then
  echo "transport choices outside host/transport and the transports' folders:"
  printf '%s\n' "$hits" "$readers" | sed '/^$/d'
  exit 1
fi
echo "transport_choice_check: only host/transport/select.cpp chooses; the rest of host/ calls through the tables"
