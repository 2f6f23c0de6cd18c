"""Ctrl-C during a long call: the call stops at its next work item (the library's stop request,
calib/parallel.hpp) and Python raises KeyboardInterrupt promptly, instead of waiting for the call to
return; the interpreter is usable afterwards. Run in a child interpreter that receives SIGINT."""
import os
import signal
import subprocess
import sys
import time

CHILD = r"""
import signal
import time
import numpy as np
import calib
# Python leaves SIGINT ignored when it starts with it ignored (a job started in the background, as CI
# runs are): the handler that raises KeyboardInterrupt is installed here in any case.
signal.signal(signal.SIGINT, signal.default_int_handler)
rng = np.random.default_rng(0)
p = rng.uniform(size=200000)
y = (rng.uniform(size=p.size) < p).astype(int)
print("ready", flush=True)
start = time.time()
try:
    calib.estimate(p, y, family="binary", estimator="skce-unbiased")  # 2e10 pairs: minutes
    print("finished", flush=True)
except KeyboardInterrupt:
    print("interrupted %.3f" % (time.time() - start), flush=True)
print(calib.estimate(p[:100], y[:100], family="binary", estimator="ece").estimate >= 0, flush=True)
"""


def test_ctrl_c_stops_a_long_call_promptly():
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, text=True, env=dict(os.environ))
    assert child.stdout.readline().strip() == "ready"
    time.sleep(1.0)  # the call is in its pair loop by now
    sent = time.time()
    child.send_signal(signal.SIGINT)
    lines = child.stdout.read().split()
    child.wait(timeout=60)
    waited = time.time() - sent
    assert lines[0] == "interrupted" and lines[2] == "True", lines
    # The stop is checked every 50 ms and between work items of a few thousand pairs: well under a
    # second on any machine; 10 s leaves room for a loaded one, against the minutes of the call.
    assert waited < 10, waited
    assert child.returncode == 0
