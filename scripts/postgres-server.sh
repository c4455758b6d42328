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
# Close every descriptor the script was given beyond the standard three: the server it starts
# would hold them for as long as it runs, and a caller waiting for them to close (Foundation's
# Process watches one to learn that its child ended) would wait as long.
if [[ -d /proc/$$/fd ]]; then
    for descriptor in /proc/$$/fd/*; do
        descriptor="${descriptor##*/}"
        if ((descriptor > 2 && descriptor != 255)); then eval "exec ${descriptor}>&-" 2>/dev/null || true; fi
    done
fi
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
        cp "$data/postgresql.conf" "$folder/postgresql.conf.initial"
    fi
    if as_owner "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
        echo "postgres://singleton:$(cat "$folder/password")@127.0.0.1:$(cat "$folder/port")/postgres?sslmode=disable"
        exit 0
    fi
    # A free port of 54320-54399, tried in a random order: a server that fails to start (another
    # took the port meanwhile) is started again on the next one.
    started=""
    for candidate in $(shuf -i 54320-54399); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$candidate") 2>/dev/null; then continue; fi
        cp "$folder/postgresql.conf.initial" "$data/postgresql.conf"
        {
            echo "listen_addresses = '127.0.0.1'"
            echo "port = $candidate"
            echo "unix_socket_directories = '$folder'"
            echo "max_connections = 200"
        } >> "$data/postgresql.conf"
        if as_owner "$bin/pg_ctl" -D "$data" -l "$folder/server.log" -w -t 60 start >/dev/null; then
            echo "$candidate" > "$folder/port"
            started=1
            break
        fi
    done
    [[ -n "$started" ]] || { cat "$folder/server.log" >&2; exit 1; }
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
