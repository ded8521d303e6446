#!/usr/bin/env bash
# The suite's MariaDB on 127.0.0.1:3306, user root with no password over TCP. Installs
# Debian's mariadb-server when it is missing and starts it when nothing answers; a server
# started here is recorded for scripts/stop_services.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/services.sh

tcp_root() { mariadb -h127.0.0.1 -P3306 -uroot --connect-timeout=2 -e 'SELECT 1' >/dev/null 2>&1; }

if [ ! -x /usr/sbin/mariadbd ]; then
  echo "installing Debian's mariadb-server"
  apt_install mariadb-server mariadb-client
fi

if ! port_answers 3306; then
  echo "MariaDB is down; starting it"
  install -d -o mysql -g mysql /run/mysqld
  if [ ! -d /var/lib/mysql/mysql ]; then
    mariadb-install-db --user=mysql --datadir=/var/lib/mysql >/dev/null
  fi
  setsid /usr/sbin/mariadbd --user=mysql --bind-address=127.0.0.1 --port=3306 \
    >/var/log/scheduler-mariadb.log 2>&1 </dev/null &
  record_started mariadb $!
  wait_for_port 3306 60 mariadb || {
    echo "MariaDB did not come up on 127.0.0.1:3306; its log:" >&2
    tail -n 20 /var/log/scheduler-mariadb.log >&2
    exit 1
  }
fi

# A fresh Debian MariaDB lets root in through the unix socket only, and a TCP connection
# from 127.0.0.1 counts as localhost: allow root with an empty password as well.
if ! tcp_root; then
  mariadb -uroot -e "ALTER USER 'root'@'localhost' IDENTIFIED VIA mysql_native_password \
    USING PASSWORD('') OR unix_socket; FLUSH PRIVILEGES;"
fi
tcp_root || { echo "MariaDB answers but root cannot log in over TCP without a password" >&2; exit 1; }
