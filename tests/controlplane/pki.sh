#!/usr/bin/env bash
# pki.sh DIR: a fresh PKI and kubeconfigs for one local control plane, made with openssl.
#   ca.crt/key                 self-signed CA (client CA and trust anchor)
#   apiserver.crt/key          serving certificate, SANs 127.0.0.1, ::1, localhost, kubernetes.default...
#   admin.crt/key              CN=admin, O=system:masters            (tests, kubectl, KCM)
#   kube-scheduler.crt/key     CN=system:kube-scheduler              (stock scheduler RBAC)
#   sa.key/sa.pub              service-account signing key
#   tokens.csv, admin.token    static bearer token for admin (system:masters)
# Kubeconfigs (written by start.sh once the port is known) point at 127.0.0.1 only.
set -euo pipefail
dir=${1:?usage: pki.sh DIR}
mkdir -p "$dir"; chmod 700 "$dir"; cd "$dir"
command -v openssl >/dev/null || { echo "[controlplane/pki] FAILED at step: find openssl" >&2; exit 1; }
ossl() { openssl "$@" 2>/dev/null || { echo "[controlplane/pki] FAILED at step: openssl $1 in $dir" >&2; exit 1; }; }

ossl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 3650 -subj "/CN=kube-scheduler-cpp-test-ca" \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign,digitalSignature"

# issue NAME SUBJECT EXTENDED_KEY_USAGE [SUBJECT_ALT_NAMES]
issue() {
  local name=$1 subject=$2 eku=$3 san=${4:-}
  local ext="basicConstraints=CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=$eku"
  [ -n "$san" ] && ext+="
subjectAltName=$san"
  ossl req -newkey rsa:2048 -nodes -keyout "$name.key" -out "$name.csr" -subj "$subject"
  printf '%s\n' "$ext" > "$name.ext"
  ossl x509 -req -in "$name.csr" -CA ca.crt -CAkey ca.key -CAcreateserial -days 3650 -out "$name.crt" -extfile "$name.ext"
  rm -f "$name.csr" "$name.ext"
}
issue apiserver "/CN=kube-apiserver" serverAuth \
  "IP:127.0.0.1,IP:::1,DNS:localhost,IP:10.0.0.1,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local"
issue admin "/O=system:masters/CN=admin" clientAuth
issue kube-scheduler "/CN=system:kube-scheduler" clientAuth
ossl genrsa -out sa.key 2048
ossl rsa -in sa.key -pubout -out sa.pub

token=$(openssl rand -hex 24)
printf '%s\n' "$token" > admin.token
printf '%s,admin,uid-admin,"system:masters"\n' "$token" > tokens.csv
chmod 600 ./*.key admin.token tokens.csv
