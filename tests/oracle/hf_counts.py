"""Prints the reference Hugging Face `tokenizers` counts of the texts in a JSON file (a list of
strings) under a tokenizer.json, as a JSON list: no special tokens added, truncation and padding
off, as schematax counts. Run with tokenizers on the path (scripts/install-hf-tokenizers):

    PYTHONPATH=target/hf-tokenizers/py python3 -S tests/oracle/hf_counts.py tokenizer.json texts.json
"""

import json
import sys

from tokenizers import Tokenizer

tokenizer = Tokenizer.from_file(sys.argv[1])
tokenizer.no_truncation()
tokenizer.no_padding()
texts = json.load(open(sys.argv[2], encoding="utf-8"))
encodings = tokenizer.encode_batch(texts, add_special_tokens=False)
json.dump([len(e.ids) for e in encodings], sys.stdout)
