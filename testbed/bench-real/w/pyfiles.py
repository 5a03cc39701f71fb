# Reads every file of a tree (os.walk, open, read): one fstat per open() in Python's io.
import hashlib, os, sys
h = hashlib.sha256()
n = 0
for d, dirs, files in os.walk(sys.argv[1]):
    dirs.sort()
    for f in sorted(files):
        with open(os.path.join(d, f), 'rb') as fh:
            b = fh.read()
        h.update(b)
        n += 1
print(n, h.hexdigest())
