"""JSON text byte for byte as gapscope-cli prints it.

gapscope-cli writes its JSON through nlohmann::ordered_json::dump(2) with
invalid UTF-8 replaced: members in the order they were added, two spaces of
indent, non-ASCII characters as they are (not \\u escaped), control
characters as \\u00xx (lower-case hex), and doubles through nlohmann's
shortest round-trip formatter, whose layout differs from Python's repr in
places (1e15 is "1e+15" there, "1000000000000000.0" here). `dumps` follows
nlohmann; json.dumps(indent=2, ensure_ascii=False) gives the same text for
the documents this package prints (doubles of 0..100), which the test checks.
"""

from __future__ import annotations

import math
import struct

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _string(text: str) -> str:
    out = ['"']
    for ch in text:
        esc = _ESCAPES.get(ch)
        if esc is not None:
            out.append(esc)
        elif ord(ch) < 0x20:
            out.append("\\u%04x" % ord(ch))
        elif 0xD800 <= ord(ch) <= 0xDFFF:  # a lone surrogate (undecodable input): nlohmann replaces it
            out.append("\ufffd")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


# nlohmann::detail::dtoa_impl (Grisu2, Loitsch 2010): not always the
# shortest digits (about 2 in 1000 doubles of 0..100 get one more digit than
# Python's repr), so it is ported here operation for operation, 64-bit
# unsigned arithmetic as masked Python integers.
_M64 = (1 << 64) - 1
_ALPHA = -60
_CACHED_POWERS = (  # (f, e, k): f * 2^e ~= 10^k, from nlohmann's to_chars.hpp
    (0xAB70FE17C79AC6CA, -1060, -300),
    (0xFF77B1FCBEBCDC4F, -1034, -292),
    (0xBE5691EF416BD60C, -1007, -284),
    (0x8DD01FAD907FFC3C, -980, -276),
    (0xD3515C2831559A83, -954, -268),
    (0x9D71AC8FADA6C9B5, -927, -260),
    (0xEA9C227723EE8BCB, -901, -252),
    (0xAECC49914078536D, -874, -244),
    (0x823C12795DB6CE57, -847, -236),
    (0xC21094364DFB5637, -821, -228),
    (0x9096EA6F3848984F, -794, -220),
    (0xD77485CB25823AC7, -768, -212),
    (0xA086CFCD97BF97F4, -741, -204),
    (0xEF340A98172AACE5, -715, -196),
    (0xB23867FB2A35B28E, -688, -188),
    (0x84C8D4DFD2C63F3B, -661, -180),
    (0xC5DD44271AD3CDBA, -635, -172),
    (0x936B9FCEBB25C996, -608, -164),
    (0xDBAC6C247D62A584, -582, -156),
    (0xA3AB66580D5FDAF6, -555, -148),
    (0xF3E2F893DEC3F126, -529, -140),
    (0xB5B5ADA8AAFF80B8, -502, -132),
    (0x87625F056C7C4A8B, -475, -124),
    (0xC9BCFF6034C13053, -449, -116),
    (0x964E858C91BA2655, -422, -108),
    (0xDFF9772470297EBD, -396, -100),
    (0xA6DFBD9FB8E5B88F, -369, -92),
    (0xF8A95FCF88747D94, -343, -84),
    (0xB94470938FA89BCF, -316, -76),
    (0x8A08F0F8BF0F156B, -289, -68),
    (0xCDB02555653131B6, -263, -60),
    (0x993FE2C6D07B7FAC, -236, -52),
    (0xE45C10C42A2B3B06, -210, -44),
    (0xAA242499697392D3, -183, -36),
    (0xFD87B5F28300CA0E, -157, -28),
    (0xBCE5086492111AEB, -130, -20),
    (0x8CBCCC096F5088CC, -103, -12),
    (0xD1B71758E219652C, -77, -4),
    (0x9C40000000000000, -50, 4),
    (0xE8D4A51000000000, -24, 12),
    (0xAD78EBC5AC620000, 3, 20),
    (0x813F3978F8940984, 30, 28),
    (0xC097CE7BC90715B3, 56, 36),
    (0x8F7E32CE7BEA5C70, 83, 44),
    (0xD5D238A4ABE98068, 109, 52),
    (0x9F4F2726179A2245, 136, 60),
    (0xED63A231D4C4FB27, 162, 68),
    (0xB0DE65388CC8ADA8, 189, 76),
    (0x83C7088E1AAB65DB, 216, 84),
    (0xC45D1DF942711D9A, 242, 92),
    (0x924D692CA61BE758, 269, 100),
    (0xDA01EE641A708DEA, 295, 108),
    (0xA26DA3999AEF774A, 322, 116),
    (0xF209787BB47D6B85, 348, 124),
    (0xB454E4A179DD1877, 375, 132),
    (0x865B86925B9BC5C2, 402, 140),
    (0xC83553C5C8965D3D, 428, 148),
    (0x952AB45CFA97A0B3, 455, 156),
    (0xDE469FBD99A05FE3, 481, 164),
    (0xA59BC234DB398C25, 508, 172),
    (0xF6C69A72A3989F5C, 534, 180),
    (0xB7DCBF5354E9BECE, 561, 188),
    (0x88FCF317F22241E2, 588, 196),
    (0xCC20CE9BD35C78A5, 614, 204),
    (0x98165AF37B2153DF, 641, 212),
    (0xE2A0B5DC971F303A, 667, 220),
    (0xA8D9D1535CE3B396, 694, 228),
    (0xFB9B7CD9A4A7443C, 720, 236),
    (0xBB764C4CA7A44410, 747, 244),
    (0x8BAB8EEFB6409C1A, 774, 252),
    (0xD01FEF10A657842C, 800, 260),
    (0x9B10A4E5E9913129, 827, 268),
    (0xE7109BFBA19C0C9D, 853, 276),
    (0xAC2820D9623BF429, 880, 284),
    (0x80444B5E7AA7CF85, 907, 292),
    (0xBF21E44003ACDD2D, 933, 300),
    (0x8E679C2F5E44FF8F, 960, 308),
    (0xD433179D9C8CB841, 986, 316),
    (0x9E19DB92B4E31BA9, 1013, 324),
)


def _mul(xf: int, xe: int, yf: int, ye: int):
    u_lo, u_hi = xf & 0xFFFFFFFF, xf >> 32
    v_lo, v_hi = yf & 0xFFFFFFFF, yf >> 32
    p0, p1, p2, p3 = u_lo * v_lo, u_lo * v_hi, u_hi * v_lo, u_hi * v_hi
    q = (p0 >> 32) + (p1 & 0xFFFFFFFF) + (p2 & 0xFFFFFFFF) + (1 << 31)
    h = (p3 + (p2 >> 32) + (p1 >> 32) + (q >> 32)) & _M64
    return h, xe + ye + 64


def _normalize(f: int, e: int):
    while f >> 63 == 0:
        f = (f << 1) & _M64
        e -= 1
    return f, e


def _grisu2(value: float):
    """(digits, decimal_exponent): value ~= int(digits) * 10^decimal_exponent."""
    bits = struct.unpack("<Q", struct.pack("<d", value))[0]
    big_e, big_f = bits >> 52, bits & ((1 << 52) - 1)
    if big_e == 0:
        vf, ve = big_f, 1 - 1075
    else:
        vf, ve = big_f + (1 << 52), big_e - 1075
    lower_closer = big_f == 0 and big_e > 1
    mpf, mpe = _normalize(2 * vf + 1, ve - 1)
    if lower_closer:
        mmf, mme = 4 * vf - 1, ve - 2
    else:
        mmf, mme = 2 * vf - 1, ve - 1
    mmf, mme = (mmf << (mme - mpe)) & _M64, mpe
    wf, we = _normalize(vf, ve)
    # get_cached_power_for_binary_exponent(mpe)
    f = _ALPHA - mpe - 1
    k = int((f * 78913) / (1 << 18)) + (1 if f > 0 else 0)  # C++ division truncates toward zero
    index = (300 + k + 7) // 8
    cf, ce, ck = _CACHED_POWERS[index]
    w_f, w_e = _mul(wf, we, cf, ce)
    wm_f, _ = _mul(mmf, mme, cf, ce)
    wp_f, wp_e = _mul(mpf, mpe, cf, ce)
    m_minus_f = wm_f + 1
    m_plus_f, e = wp_f - 1, wp_e
    decimal_exponent = -ck
    # grisu2_digit_gen
    delta = m_plus_f - m_minus_f
    dist = m_plus_f - w_f
    one_f = 1 << -e
    p1 = m_plus_f >> -e
    p2 = m_plus_f & (one_f - 1)
    pow10 = 10 ** (len(str(p1)) - 1)
    n = len(str(p1))
    buf = []

    def round_last(dist, delta, rest, ten_k):
        while rest < dist and delta - rest >= ten_k and (rest + ten_k < dist or dist - rest > rest + ten_k - dist):
            buf[-1] = chr(ord(buf[-1]) - 1)
            rest += ten_k

    while n > 0:
        d, p1 = divmod(p1, pow10)
        buf.append(chr(48 + d))
        n -= 1
        rest = (p1 << -e) + p2
        if rest <= delta:
            decimal_exponent += n
            round_last(dist, delta, rest, pow10 << -e)
            return "".join(buf), decimal_exponent
        pow10 //= 10
    m = 0
    while True:
        p2 *= 10
        d, p2 = p2 >> -e, p2 & (one_f - 1)
        buf.append(chr(48 + d))
        m += 1
        delta *= 10
        dist *= 10
        if p2 <= delta:
            break
    decimal_exponent -= m
    round_last(dist, delta, p2, one_f)
    return "".join(buf), decimal_exponent


def _double(value: float) -> str:
    """nlohmann::detail::to_chars: Grisu2 digits laid out with min_exp -4
    and max_exp 15 (std::numeric_limits<double>::digits10)."""
    if not math.isfinite(value):
        return "null"
    sign = "-" if math.copysign(1.0, value) < 0 else ""
    value = abs(value)
    if value == 0:
        return sign + "0.0"
    digits, decimal_exponent = _grisu2(value)
    k = len(digits)
    n = k + decimal_exponent
    if k <= n <= 15:
        return sign + digits + "0" * (n - k) + ".0"
    if 0 < n <= 15:
        return sign + digits[:n] + "." + digits[n:]
    if -4 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    e = n - 1
    body = digits if k == 1 else digits[0] + "." + digits[1:]
    mag = abs(e)
    return sign + body + "e" + ("-" if e < 0 else "+") + ("%02d" % mag if mag < 100 else "%d" % mag)


def _value(value, indent: int, out: list) -> None:
    if value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, int):
        out.append(str(value))
    elif isinstance(value, float):
        out.append(_double(value))
    elif isinstance(value, str):
        out.append(_string(value))
    elif isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        out.append("{\n")
        inner = " " * (indent + 2)
        for i, (key, member) in enumerate(value.items()):
            if i:
                out.append(",\n")
            out.append(inner + _string(str(key)) + ": ")
            _value(member, indent + 2, out)
        out.append("\n" + " " * indent + "}")
    elif isinstance(value, (list, tuple)):
        if not value:
            out.append("[]")
            return
        out.append("[\n")
        inner = " " * (indent + 2)
        for i, element in enumerate(value):
            if i:
                out.append(",\n")
            out.append(inner)
            _value(element, indent + 2, out)
        out.append("\n" + " " * indent + "]")
    else:
        raise TypeError("not JSON: %r" % (value,))


def dumps(value) -> str:
    """The text of nlohmann's dump(2), without the newline writeJson adds."""
    out: list = []
    _value(value, 0, out)
    return "".join(out)
