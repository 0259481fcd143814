// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

/**
 * The secret-egress guard: known secret values (a workspace's `.env` files and private keys, the
 * keys Paddock injects) looked for in what a sandbox sends through an intercepted connection,
 * in the forms a program is likely to send them: as they are, JSON-escaped, percent-encoded and
 * base64 (standard and URL alphabets, at each of the three alignments a value can have inside a
 * longer encoded text).
 *
 * Every form of every value goes into one Aho–Corasick automaton, compiled to a table over the
 * byte classes the forms use, so a body is scanned once whatever the number of values, and a scan
 * carries its state from one chunk to the next: a value split across two reads is found like any
 * other. Where the automaton is at its start, a prefilter skips ahead: it reads one 4-byte gram
 * every few bytes and looks it up in a bitmap of the grams that open the forms, and the automaton
 * runs only near a gram that may belong to one, so ordinary text is read at a fraction of a step
 * per byte. Pure (no sockets, no files).
 */
namespace paddock::proxy::guard {

/** What the guard does on a match. */
enum class Mode {
    Off,    ///< nothing is scanned
    Refuse, ///< the request is not forwarded; the sandbox gets a 403 that names the value
    Redact, ///< each occurrence is replaced by a marker naming the value, and the request goes
};

/** "off", "refuse", "redact". */
QString modeName(Mode mode);
/** From modeName(); nullopt for anything else. */
std::optional<Mode> modeFromName(const QString &name);

/** @brief One value to look for, and where it comes from; what events and answers name. */
struct Value
{
    std::string bytes; ///< the secret itself: never logged, never in an event
    QString file;      ///< ".env", "config/.env.local", "keychain"
    QString name;      ///< "OPENAI_KEY", or the key file's name
};

/** Values shorter than this are not looked for: they would match ordinary text. */
constexpr std::size_t MinValueBytes = 8;
/** Longer values are looked for by their first this many bytes. */
constexpr std::size_t MaxValueBytes = 256;
/** The automaton's bound: values whose forms would pass it are left out (Patterns::skipped()). */
constexpr std::size_t MaxStates = 65000;

/** The forms of @p value looked for (exposed for tests): plain, JSON, percent, base64 at 0/1/2. */
std::vector<std::string> formsOf(std::string_view value);

/** @brief The compiled automaton of a set of values; immutable, shared by every scan. */
class Patterns
{
public:
    /** Compiles @p values; the bytes of each are wiped from @p values as they are taken. */
    static std::shared_ptr<const Patterns> build(std::vector<Value> &values);
    ~Patterns();
    Patterns(const Patterns &) = delete;
    Patterns &operator=(const Patterns &) = delete;

    bool empty() const { return m_values.empty(); }
    /** Where each value comes from (its bytes are not kept). */
    const std::vector<Value> &values() const { return m_values; }
    /** Values too short, or beyond MaxStates, with the reason: "file NAME: why". */
    const std::vector<QString> &skipped() const { return m_skipped; }
    std::size_t longestForm() const { return m_longest; }

    /**
     * A state is the offset of its row in the table, so a step is one addition and one load;
     * the states where a form ends are numbered last, so telling one is a comparison.
     */
    std::uint32_t start() const { return 0; }
    std::uint32_t step(std::uint32_t state, unsigned char byte) const { return m_rows[state + m_class[byte]]; }
    bool matches(std::uint32_t state) const { return state >= m_firstMatch; }
    /** The longest form ending in @p state (one that matches()): its length. */
    std::uint16_t matchLength(std::uint32_t state) const { return m_matchLength[state / m_classes]; }
    /** The value of that form. */
    std::uint16_t matchValue(std::uint32_t state) const { return m_matchValue[state / m_classes]; }

    /**
     * With the automaton at its start(): where in [@p at, @p end) it must run from, no form
     * starting before that. Every form is at least span bytes long, so a form starting at s has
     * a sampled position p (every stride bytes) in [s, s + stride) whose gram is among the first
     * stride grams of a form; a sample whose gram is in none rules out the stride starts up to it.
     */
    const unsigned char *skip(const unsigned char *at, const unsigned char *end) const;
    /** How many bytes the automaton runs after a skip() before the next one: one stride. */
    std::size_t stride() const { return m_stride; }

private:
    Patterns() = default;
    /** Failure links, breadth first, folded into the table: each of @p states gets every edge. */
    void link(std::size_t states);
    /** The rows of @ref m_next as offsets, the matching states last (see step()). */
    void compile(std::size_t states);
    /** @p form of value @p value into the trie (@p states so far), its grams into the prefilter's. */
    void insert(std::string_view form, std::uint16_t value, std::size_t &states);
    /** The grams of @p form the prefilter looks for (see skip()). */
    void addGrams(std::string_view form);
    static std::uint32_t gramHash(const unsigned char *at);
    std::vector<Value> m_values;
    std::vector<QString> m_skipped;
    std::size_t m_classes = 1;
    std::uint8_t m_class[256] = {};
    std::vector<std::uint16_t> m_next; ///< while built: state indexes
    std::vector<std::uint32_t> m_rows;
    std::uint32_t m_firstMatch = 0;
    std::vector<std::uint16_t> m_matchLength;
    std::vector<std::uint16_t> m_matchValue;
    std::size_t m_longest = 0;
    std::size_t m_stride = 1;
    std::vector<std::uint64_t> m_grams; ///< a bitmap by gramHash()
};

/** @brief The guard's mode and values in force for one request. */
struct GuardState
{
    Mode mode = Mode::Off;
    std::shared_ptr<const Patterns> patterns;
};

/** @brief The guard of one sandbox, as its intercepted connections read it. */
struct GuardConfig
{
    /** The mode and values in force now (called for each request; thread-safe, may re-read files). */
    std::function<GuardState()> current;
    /**
     * Redact mode: a request body up to this size is held, whole, before any of it is forwarded,
     * so it goes redacted with the right Content-Length. A larger body is forwarded as it streams
     * once this much is held, redacted and re-sent chunked.
     */
    std::size_t holdBytes = 8 * 1024 * 1024;
    /**
     * Refuse mode: a request body up to this size is held, whole, so a value found in it refuses
     * the request before the upstream has seen any of it. A larger body goes on as it is scanned,
     * but for its last Patterns::longestForm() - 1 bytes, so no byte of a value is ever sent and
     * the message is never complete upstream before the whole of it was scanned: a value found
     * then cuts the upstream connection mid-body.
     */
    std::size_t refuseHoldBytes = 64 * 1024;
    /** What the 403 says can be done, e.g. the command that allows a value. */
    std::function<QString(const Value &)> howToAllow;
};

/** The marker a redacted occurrence becomes: "[redacted by Paddock: .env OPENAI_KEY]". */
std::string redactionMarker(const Value &value);

/**
 * @brief One scan through a stream (a request head, or a body's data), chunk after chunk.
 */
class Scanner
{
public:
    explicit Scanner(std::shared_ptr<const Patterns> patterns);

    /** Scans @p data; true when a value was found (the first is found(), and scanning stops). */
    bool scan(std::string_view data);
    /** The first value found, if any. */
    const Value *found() const;
    /** Where value @p index of the patterns comes from. */
    const Value &valueAt(std::uint16_t index) const { return m_patterns->values()[index]; }

    /**
     * Redacting instead: appends to @p out what of the stream so far is final, each occurrence
     * replaced by its marker; holds back the few last bytes a value may start in.
     */
    void redact(std::string_view data, std::string &out);
    /** The end of the stream: everything held back goes to @p out. */
    void finishRedaction(std::string &out);
    /** Every value redacted so far, each once. */
    const std::vector<std::uint16_t> &redacted() const { return m_redacted; }

private:
    struct Range
    {
        std::uint64_t start;
        std::uint64_t end;
        std::uint16_t value;
    };
    void release(std::uint64_t boundary, std::string &out);

    std::shared_ptr<const Patterns> m_patterns;
    std::uint32_t m_state = 0;
    std::optional<std::uint16_t> m_found;
    std::string m_pending;     ///< bytes not yet final (redact)
    std::uint64_t m_base = 0;  ///< the stream offset of m_pending's first byte
    std::uint64_t m_total = 0; ///< bytes scanned
    std::vector<Range> m_ranges;
    std::vector<std::uint16_t> m_redacted;
};

} // namespace paddock::proxy::guard
