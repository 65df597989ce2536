# SPDX-License-Identifier: MIT
# A stand-in for PySide2, enough of QtSql for perf's export-to-sqlite.py
# (tests/e2e/t0801): QSqlDatabase/QSqlQuery over Python's sqlite3 module.
