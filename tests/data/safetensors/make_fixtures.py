#!/usr/bin/env python3
"""Safetensors fixtures for tests/safetensors_test.cpp, written by an independent writer.

Only the Python standard library (struct + json), following the format as the spec states it
(github.com/huggingface/safetensors README, "Format"):
  8 bytes: N, a little-endian u64, the size of the header;
  N bytes: a UTF-8 JSON object {"NAME": {"dtype", "shape", "data_offsets": [BEGIN, END]}, ...}
           with an optional "__metadata__" string -> string map;
  the rest: the byte buffer, offsets relative to its start, row-major little-endian data.

  python3 make_fixtures.py OUT_DIR
  python3 make_fixtures.py --dump FILE    (reads FILE, prints {metadata, tensors: {name: {dtype,
                                           shape, values}}} as JSON: the independent reader)

writes OUT_DIR/valid/*.safetensors, OUT_DIR/invalid/*.safetensors, OUT_DIR/sharded*/ and
OUT_DIR/expected.json: for each valid file, every tensor's dtype, shape and values (as Python
decoded them); for each invalid file, a substring its error message must contain.
"""
import json
import os
import struct
import sys

# dtype -> (struct format of one element, bytes)
FORMATS = {
    "BOOL": ("?", 1), "U8": ("B", 1), "I8": ("b", 1), "I16": ("h", 2), "U16": ("H", 2),
    "F16": ("e", 2), "I32": ("i", 4), "U32": ("I", 4), "F32": ("f", 4), "F64": ("d", 8),
    "I64": ("q", 8), "U64": ("Q", 8),
}


def pack(dtype, values):
    """Little-endian bytes of `values` in `dtype` (BF16: the upper half of the F32 bits)."""
    if dtype == "BF16":
        return b"".join(struct.pack("<f", v)[2:] for v in values)
    fmt, _ = FORMATS[dtype]
    return struct.pack("<%d%s" % (len(values), fmt), *values)


def file_bytes(tensors, metadata=None, pad=True, header=None, extra=b""):
    """tensors: [(name, dtype, shape, data bytes)], packed in this order from offset 0."""
    if header is None:
        header = {}
        if metadata is not None:
            header["__metadata__"] = metadata
        offset = 0
        for name, dtype, shape, data in (x[:4] for x in tensors):
            header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + len(data)]}
            offset += len(data)
    text = header if isinstance(header, bytes) else json.dumps(header).encode("utf-8")
    if pad:
        text += b" " * ((8 - len(text) % 8) % 8)
    return struct.pack("<Q", len(text)) + text + b"".join(x[3] for x in tensors) + extra


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def main(out):
    for sub in ("valid", "invalid", "sharded", "sharded_missing", "sharded_traversal", "sharded_duplicate"):
        os.makedirs(os.path.join(out, sub), exist_ok=True)
    expected = {"valid": {}, "invalid": {}}

    def valid(name, tensors, metadata=None, **kw):
        write(os.path.join(out, "valid", name), file_bytes(tensors, metadata, **kw))
        expected["valid"][name] = {
            "metadata": metadata or {},
            "tensors": {t[0]: {"dtype": t[1], "shape": t[2], "values": t[4]} for t in tensors},
        }

    def t(name, dtype, shape, values):
        return (name, dtype, shape, pack(dtype, values), [int(v) if dtype == "BOOL" else v for v in values])

    # Every whole-byte dtype LibTorch 1.13 has, values exactly representable in each.
    valid("dtypes.safetensors", [
        t("f32", "F32", [2, 3], [0.0, -1.5, 3.25, 1e-3, -7e5, 2.0 ** -20]),
        t("f16", "F16", [4], [0.5, -2.0, 65504.0, 0.000060975551605224609375]),
        t("bf16", "BF16", [2, 2], [1.0, -0.15625, 1.5 * 2 ** 100, 256.0]),
        t("f64", "F64", [3], [3.141592653589793, -1e300, 5e-324]),
        t("i64", "I64", [2], [-(2 ** 63), 2 ** 63 - 1]),
        t("i32", "I32", [3], [-(2 ** 31), 0, 2 ** 31 - 1]),
        t("i16", "I16", [2], [-32768, 32767]),
        t("i8", "I8", [2], [-128, 127]),
        t("u8", "U8", [3], [0, 128, 255]),
        t("bool", "BOOL", [3], [True, False, True]),
    ], metadata={"format": "pt", "note": "written by make_fixtures.py"})
    # A scalar (shape []), an empty tensor (a 0 extent: no bytes), no metadata, unpadded header.
    valid("scalar_empty.safetensors", [
        t("scalar", "F32", [], [42.0]),
        t("empty", "F32", [0, 4], []),
        t("after", "I32", [1], [7]),
    ], pad=False)
    # Header entries in an order other than the data's (offsets, not key order, place tensors).
    b = pack("F32", [1.0, 2.0])
    a = pack("F32", [3.0])
    hdr = {"b": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
           "a": {"dtype": "F32", "shape": [1], "data_offsets": [8, 12]}}
    write(os.path.join(out, "valid", "reordered.safetensors"), file_bytes([("b", "", [], b), ("a", "", [], a)], header=hdr))
    expected["valid"]["reordered.safetensors"] = {"metadata": {}, "tensors": {
        "a": {"dtype": "F32", "shape": [1], "values": [3.0]}, "b": {"dtype": "F32", "shape": [2], "values": [1.0, 2.0]}}}

    def invalid(name, data, message):
        write(os.path.join(out, "invalid", name), data)
        expected["invalid"][name] = message

    good = [("w", "F32", [2], pack("F32", [1.0, 2.0]))]
    ok = file_bytes(good)
    invalid("short.safetensors", b"\x01\x02\x03", "shorter than the 8-byte header length")
    invalid("header_past_end.safetensors", struct.pack("<Q", 4096) + ok[8:], "runs past the end of the file")
    invalid("header_too_large.safetensors", struct.pack("<Q", 200_000_000) + b"{}", "exceeds the format's limit")
    invalid("not_json.safetensors", file_bytes([], header=b"{not json"), "not valid JSON")
    invalid("not_object.safetensors", file_bytes([], header=b"[1, 2]"), "does not start with '{'")
    invalid("bad_utf8.safetensors", file_bytes([], header=b'{"\xff\xfe": 1}'), "not valid JSON")
    invalid("duplicate_key.safetensors",
            file_bytes(good, header=b'{"w": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}, '
                                    b'"w": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}'),
            "duplicate key")
    invalid("unknown_dtype.safetensors",
            file_bytes(good, header={"w": {"dtype": "F33", "shape": [2], "data_offsets": [0, 8]}}), "unknown or unsupported dtype")
    invalid("shape_mismatch.safetensors",
            file_bytes(good, header={"w": {"dtype": "F32", "shape": [3], "data_offsets": [0, 8]}}), "needs 12 bytes")
    invalid("negative_dim.safetensors",
            file_bytes(good, header={"w": {"dtype": "F32", "shape": [-2], "data_offsets": [0, 8]}}), "expected an integer >= 0")
    invalid("float_dim.safetensors",
            file_bytes(good, header={"w": {"dtype": "F32", "shape": [2.0], "data_offsets": [0, 8]}}), "expected an integer >= 0")
    invalid("end_before_begin.safetensors",
            file_bytes(good, header={"w": {"dtype": "F32", "shape": [0], "data_offsets": [8, 0]}}), "END is before BEGIN")
    invalid("offsets_out_of_range.safetensors",
            file_bytes(good, header={"w": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}}), "truncated file")
    invalid("trailing_bytes.safetensors", file_bytes(good, extra=b"\0" * 8), "trailing bytes")
    two = [("x", "F32", [2], pack("F32", [1.0, 2.0])), ("y", "F32", [2], pack("F32", [3.0, 4.0]))]
    invalid("overlap.safetensors",
            file_bytes(two, header={"x": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
                                    "y": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}}), "overlaps")
    invalid("gap.safetensors",
            file_bytes(two, header={"x": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]},
                                    "y": {"dtype": "F32", "shape": [2], "data_offsets": [8, 16]}}), "gap of 4 bytes")
    invalid("overflow.safetensors",
            file_bytes(good, header={"w": {"dtype": "F64", "shape": [2 ** 62, 2 ** 62], "data_offsets": [0, 8]}}),
            "overflows 64 bits")
    invalid("missing_offsets.safetensors", file_bytes(good, header={"w": {"dtype": "F32", "shape": [2]}}),
            "'data_offsets' is missing")
    invalid("entry_not_object.safetensors", file_bytes([], header={"w": 5}), "expected an object")
    invalid("metadata_not_string.safetensors", file_bytes(good, header={
        "__metadata__": {"format": 1}, "w": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}), "expected a string")
    # Found by fuzz_safetensors (fresh-clone CI at 62c06d5): a tensor named "" names nothing.
    invalid("empty_name.safetensors",
            file_bytes(good, header={"": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}), "a tensor with an empty name")
    invalid("deep.safetensors", file_bytes([], header=b'{"a": ' + b"[" * 100 + b"]" * 100 + b"}"), "nested deeper")

    # Sharded: two files and the index transformers writes (weight_map + metadata.total_size).
    s1 = [t("a", "F32", [2], [1.0, 2.0]), t("b", "I64", [1], [5])]
    s2 = [t("c", "F16", [2], [0.25, -4.0])]
    for d, entries in (("sharded", None), ("sharded_missing", {"ghost": "model-00002-of-00002.safetensors"}),
                       ("sharded_traversal", {"a": "../valid/dtypes.safetensors"}),
                       ("sharded_duplicate", None)):
        write(os.path.join(out, d, "model-00001-of-00002.safetensors"), file_bytes([x[:4] for x in s1]))
        second = s2 + ([t("a", "F32", [1], [9.0])] if d == "sharded_duplicate" else [])
        write(os.path.join(out, d, "model-00002-of-00002.safetensors"), file_bytes([x[:4] for x in second]))
        weight_map = {"a": "model-00001-of-00002.safetensors", "b": "model-00001-of-00002.safetensors",
                      "c": "model-00002-of-00002.safetensors"}
        weight_map.update(entries or {})
        with open(os.path.join(out, d, "model.safetensors.index.json"), "w") as f:
            json.dump({"metadata": {"total_size": 20}, "weight_map": weight_map}, f)
    expected["sharded"] = {x[0]: {"dtype": x[1], "shape": x[2], "values": x[4]} for x in s1 + s2}

    with open(os.path.join(out, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1)


def dump(path):
    """Reads a safetensors file with struct + json and prints its content as JSON."""
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n].decode("utf-8"))
    buf = data[8 + n:]
    out = {"metadata": header.pop("__metadata__", {}), "tensors": {}}
    end = 0
    for name, info in sorted(header.items(), key=lambda kv: kv[1]["data_offsets"]):
        begin, stop = info["data_offsets"]
        assert begin == end, "tensor %s does not start where the previous ended" % name
        end = stop
        raw = buf[begin:stop]
        count = 1
        for dim in info["shape"]:
            count *= dim
        if info["dtype"] == "BF16":
            values = [struct.unpack("<f", b"\0\0" + raw[2 * i:2 * i + 2])[0] for i in range(count)]
        else:
            fmt, size = FORMATS[info["dtype"]]
            assert len(raw) == count * size, "tensor %s: size mismatch" % name
            values = list(struct.unpack("<%d%s" % (count, fmt), raw))
        out["tensors"][name] = {"dtype": info["dtype"], "shape": info["shape"],
                                "values": [int(v) if isinstance(v, bool) else v for v in values]}
    assert end == len(buf), "the tensors do not cover the buffer"
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--dump":
        dump(sys.argv[2])
    elif len(sys.argv) == 2:
        main(sys.argv[1])
    else:
        sys.exit(__doc__)
