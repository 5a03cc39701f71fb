# Python start-up with common standard-library imports.
import argparse, datetime, email.parser, http.client, json, logging, pathlib, re, subprocess, sqlite3
print('ok')
