// Node.js over the tree: for every file of the list, fs.statSync (a path), fs.fstatSync
// on an open fd, fs.readFileSync (open, fstat for the size, read): libuv's uv_fs_stat and
// uv_fs_fstat, which Debian 12's libuv 1.44 makes statx calls through libc's syscall().
'use strict';
const fs = require('fs');
const crypto = require('crypto');
const list = fs.readFileSync(process.argv[2], 'utf8').split('\n').filter(Boolean);
const h = crypto.createHash('sha256');
let n = 0, size = 0, fsize = 0;
for (const p of list) {
  size += fs.statSync(p).size;
  const fd = fs.openSync(p, 'r');
  fsize += fs.fstatSync(fd).size;
  fs.closeSync(fd);
  h.update(fs.readFileSync(p));
  n++;
}
console.log(n, size, fsize, h.digest('hex'));
