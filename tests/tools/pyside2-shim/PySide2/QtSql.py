# SPDX-License-Identifier: MIT
"""The part of PySide2.QtSql that perf's export-to-sqlite.py calls, over the
sqlite3 module: lets prism's tests run perf's own exporter where PySide2 is
not installed.  Values are bound as strings, as perf binds them (sqlite's
type affinity turns them into integers in integer columns)."""
import sqlite3


class _Error:
    def __init__(self, text=""):
        self._text = text

    def text(self):
        return self._text


class QSqlDatabase:
    @staticmethod
    def addDatabase(driver):
        return QSqlDatabase()

    def setDatabaseName(self, name):
        self.name = name

    def open(self):
        self.conn = sqlite3.connect(self.name, isolation_level=None)
        return True


class QSqlQuery:
    def __init__(self, db):
        self.db = db
        self.sql = None
        self.binds = []
        self.rows = []
        self.err = _Error()

    def _run(self, sql, args):
        try:
            cur = self.db.conn.execute(sql, args)
            self.rows = cur.fetchall()
            return True
        except sqlite3.Error as e:
            self.err = _Error(str(e))
            return False

    def exec_(self, sql=None):
        if sql is not None:
            return self._run(sql, [])
        args, self.binds = self.binds, []
        return self._run(self.sql, args)

    def prepare(self, sql):
        self.sql = sql
        self.binds = []

    def addBindValue(self, v):
        self.binds.append(v)

    def next(self):
        if not self.rows:
            return False
        self.rows.pop(0)
        return True

    def lastError(self):
        return self.err
