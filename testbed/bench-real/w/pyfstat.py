# A loop of os.fstat calls on one file: the syscall's cost, seen from Python.
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
s = 0
for _ in range(int(sys.argv[2])):
    s += os.fstat(fd).st_size
print(s)
