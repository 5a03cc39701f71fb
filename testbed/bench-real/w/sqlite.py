# SQLite with its default rollback journal: many small transactions, then point reads.
import sqlite3, sys
path, n = sys.argv[1], int(sys.argv[2])
db = sqlite3.connect(path, isolation_level=None)
db.execute('create table if not exists t (k integer primary key, v text)')
for i in range(n):
    db.execute('begin')
    db.execute('insert or replace into t values (?, ?)', (i, 'value %d' % (i * 7919 % 1000)))
    db.execute('commit')
s = 0
for i in range(n):
    s += len(db.execute('select v from t where k = ?', ((i * 31) % n,)).fetchone()[0])
db.close()
print(n, s)
