#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests of Integrations/Postgres.
#
#   scripts/postgres-server.sh start FOLDER   prints the URL to use (postgres://…), on port 54xx
#   scripts/postgres-server.sh stop FOLDER    stops it and removes FOLDER
#   scripts/postgres-server.sh restart FOLDER an immediate stop, then a start on the same data
#
# Installs Debian's `postgresql` package when no server is found. The server refuses to run as
# root, so when run as root it runs as the unprivileged user `nobody`, which owns FOLDER. It
# listens on 127.0.0.1 only and asks for a password (SCRAM).
set -euo pipefail
command="${1:?usage: postgres-server.sh start|stop|restart FOLDER}"
folder="${2:?usage: postgres-server.sh start|stop|restart FOLDER}"

bin=""
for candidate in /usr/lib/postgresql/*/bin; do
    [[ -x "$candidate/initdb" ]] && bin="$candidate"
done
if [[ -z "$bin" && "$command" == start ]]; then
    echo "installing Debian's postgresql package" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >&2 || {
        apt-get update -q >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >&2
    }
    for candidate in /usr/lib/postgresql/*/bin; do
        [[ -x "$candidate/initdb" ]] && bin="$candidate"
    done
fi
[[ -n "$bin" ]] || { echo "no PostgreSQL server found" >&2; exit 1; }

as_owner() {
    if [[ "$(id -u)" == 0 ]]; then
        runuser -u nobody -- "$@"
    else
        "$@"
    fi
}

data="$folder/data"
case "$command" in
start)
    mkdir -p "$folder"
    if [[ ! -d "$data" ]]; then
        [[ "$(id -u)" == 0 ]] && chown nobody "$folder"
        password="pw-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
        printf '%s\n' "$password" > "$folder/password"
        [[ "$(id -u)" == 0 ]] && chown nobody "$folder/password"
        chmod 600 "$folder/password"
        as_owner "$bin/initdb" -D "$data" -U singleton --pwfile="$folder/password" \
            --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8 >"$folder/initdb.log" 2>&1 \
            || { cat "$folder/initdb.log" >&2; exit 1; }
        port=""
        for candidate in $(seq 54320 54399); do
            if ! (exec 3<>"/dev/tcp/127.0.0.1/$candidate") 2>/dev/null; then port=$candidate; break; fi
        done
        [[ -n "$port" ]] || { echo "no free port in 54320-54399" >&2; exit 1; }
        echo "$port" > "$folder/port"
        {
            echo "listen_addresses = '127.0.0.1'"
            echo "port = $port"
            echo "unix_socket_directories = '$folder'"
            echo "max_connections = 200"
            echo "fsync = on"
        } >> "$data/postgresql.conf"
    fi
    as_owner "$bin/pg_ctl" -D "$data" -l "$folder/server.log" -w -t 60 start >/dev/null \
        || { cat "$folder/server.log" >&2; exit 1; }
    echo "postgres://singleton:$(cat "$folder/password")@127.0.0.1:$(cat "$folder/port")/postgres?sslmode=disable"
    ;;
stop)
    [[ -d "$data" ]] && as_owner "$bin/pg_ctl" -D "$data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$folder"
    ;;
restart)
    as_owner "$bin/pg_ctl" -D "$data" -m immediate -w stop >/dev/null
    as_owner "$bin/pg_ctl" -D "$data" -l "$folder/server.log" -w -t 60 start >/dev/null
    ;;
*)
    echo "usage: postgres-server.sh start|stop|restart FOLDER" >&2
    exit 64
    ;;
esac
