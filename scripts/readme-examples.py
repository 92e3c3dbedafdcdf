#!/usr/bin/env python3
"""Refreshes the example outputs in README.md.

Every ```console block is run line by line: a line starting with `$ ` is a command,
run with bash in a scratch folder shared by the block, with target/release on PATH;
its output (stdout and stderr) replaces whatever followed it up to the next command.
Build first (`cargo build --release`), then: python3 scripts/readme-examples.py
"""
import os
import re
import subprocess
import tempfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = os.path.join(HERE, "README.md")
ENV = dict(os.environ, PATH=os.path.join(HERE, "target", "release") + ":" + os.environ["PATH"])


def run_block(lines):
    out = []
    with tempfile.TemporaryDirectory() as scratch:
        for line in lines:
            if not line.startswith("$ "):
                continue
            result = subprocess.run(["bash", "-c", line[2:]], cwd=scratch, env=ENV,
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, text=True)
            out.append(line)
            text = result.stdout[:-1] if result.stdout.endswith("\n") else result.stdout
            out.extend(text.split("\n") if text else [])
    return out


def main():
    text = open(README).read()
    pattern = re.compile(r"```console\n(.*?)```", re.S)

    def refresh(match):
        lines = match.group(1).rstrip("\n").split("\n")
        return "```console\n" + "\n".join(run_block(lines)) + "\n```"

    open(README, "w").write(pattern.sub(refresh, text))


if __name__ == "__main__":
    main()
