package io.reliabilitylab.spi.secret;

import static org.apiguardian.api.API.Status.INTERNAL;
import static org.apiguardian.api.API.Status.STABLE;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Removes secrets from text before it reaches a run record or a log line.
 *
 * <p>What is masked with {@value #MASK}:
 *
 * <ul>
 *   <li>the password in a URL's user-info: {@code jdbc:mysql://lab:s3cret@db:3306/x};
 *   <li>the value of every {@code key=value} or {@code key: value} pair whose key names a secret
 *       (password, passwd, pwd, secret, token, credential, jaas, api-key; any case) — this covers
 *       JDBC query and semicolon parameters, properties, {@code -Dfoo.password=x} and {@code
 *       --source-password=x};
 *   <li>the value after a command-line option naming a secret: {@code --source-password x};
 *   <li>a bearer token;
 *   <li>every literal secret {@linkplain #register registered} in this process, wherever it appears
 *       — so that a third-party log line that echoes a password is masked too.
 * </ul>
 *
 * <p>Redaction is idempotent: redacting redacted text changes nothing. It errs on the side of
 * masking: a value that merely sits next to a secret-sounding key is masked as well.
 *
 * <p>{@code Redactor.register(options.sourcePassword()); log.info(Redactor.redact(jdbcUrl));}
 */
@API(status = STABLE)
public final class Redactor {

  /** What every secret is replaced with. */
  public static final String MASK = "***";

  /**
   * How long a registered secret must be to be masked inside other words too: below this an
   * accidental match in ordinary text (a table name, an English word) is likely.
   */
  public static final int MASKED_ANYWHERE_LENGTH = 12;

  private static final String SECRET_WORDS =
      "password|passwd|pwd|secret|token|credential|jaas|api[-_.]?key";

  /** A key that names a secret, e.g. {@code source.password} or {@code sasl.jaas.config}. */
  private static final Pattern SECRET_KEY =
      Pattern.compile("(?i)[\\w.\\-]*(?:" + SECRET_WORDS + ")[\\w.\\-]*");

  /** {@code scheme://user:password@host}: keeps the user, masks the password. */
  private static final Pattern URL_USER_INFO =
      Pattern.compile("([a-zA-Z][a-zA-Z0-9+.\\-]*://[^\\s/:@'\"]+:)([^\\s/@'\"]+)(@)");

  /**
   * {@code key=value}, {@code key: value}, {@code "key": "value"}: the value runs to the next
   * whitespace, {@code &}, {@code ;} or {@code ,} unless it is quoted.
   */
  private static final Pattern SECRET_ASSIGNMENT =
      Pattern.compile(
          "(?i)([\\w.\\-]*(?:"
              + SECRET_WORDS
              + ")[\\w.\\-]*)(\"?\\s*[=:]\\s*)(\"[^\"]*\"|'[^']*'|(?!\\*\\*\\*|//)[^\\s&;,\"']+)");

  /** {@code --source-password value}: an option naming a secret followed by its value. */
  private static final Pattern SECRET_OPTION =
      Pattern.compile(
          "(?i)((?<![\\w-])--?[\\w.\\-]*(?:"
              + SECRET_WORDS
              + ")[\\w.\\-]*)(\\s+)(\"[^\"]*\"|'[^']*'|(?!--)[^\\s\"']+)");

  private static final Pattern BEARER =
      Pattern.compile("(?i)(\\bbearer\\s+)([A-Za-z0-9._~+/=\\-]{8,})");

  /** A cheap test so that text without any hint of a secret is returned at once. */
  private static final Pattern HINT = Pattern.compile("(?i)" + SECRET_WORDS + "|://|bearer");

  /** Longest first, so that a secret containing another is masked whole. */
  private static final Set<String> REGISTERED = new CopyOnWriteArraySet<>();

  private static volatile List<String> registeredLongestFirst = List.of();

  private Redactor() {}

  /**
   * Registers a literal secret for this process: from now on it is masked wherever it appears (also
   * its URL-encoded form). Blank values are ignored.
   */
  public static void register(@Nullable String secret) {
    if (secret == null || secret.isBlank() || MASK.equals(secret)) {
      return;
    }
    boolean changed = REGISTERED.add(secret);
    String encoded = URLEncoder.encode(secret, StandardCharsets.UTF_8);
    changed |= !encoded.equals(secret) && REGISTERED.add(encoded);
    if (changed) {
      refreshRegistered();
    }
  }

  /**
   * Registers the value of every property whose key names a secret, e.g. the pipeline options'
   * {@code source.password}, so that the values are masked wherever they are echoed later.
   */
  public static void registerSecretValues(Map<String, String> properties) {
    properties.forEach(
        (key, value) -> {
          if (isSecretKey(key)) {
            register(value);
          }
        });
  }

  /** Forgets every registered secret; for tests that must not leak state into others. */
  @API(status = INTERNAL)
  public static void clearRegistered() {
    REGISTERED.clear();
    refreshRegistered();
  }

  private static synchronized void refreshRegistered() {
    List<String> sorted = new ArrayList<>(REGISTERED);
    sorted.sort(Comparator.comparingInt(String::length).reversed());
    registeredLongestFirst = List.copyOf(sorted);
  }

  /** Whether a key (a property name, an option) names a secret, e.g. {@code source.password}. */
  public static boolean isSecretKey(String key) {
    return SECRET_KEY.matcher(key).matches();
  }

  /** The text with every secret masked; text without secrets is returned unchanged. */
  public static String redact(String text) {
    Objects.requireNonNull(text, "text");
    String result = text;
    if (HINT.matcher(result).find()) {
      result = replace(URL_USER_INFO, result, 2);
      result = replace(SECRET_ASSIGNMENT, result, 3);
      result = replace(SECRET_OPTION, result, 3);
      result = replace(BEARER, result, 2);
    }
    return redactRegistered(result);
  }

  /**
   * The text with only the {@linkplain #register registered} secrets masked, for one value of
   * structured text (a JSON string, never a key or the document whole) or one line of free text. A
   * secret of at least {@value #MASKED_ANYWHERE_LENGTH} characters is masked wherever it appears; a
   * shorter one that mixes letters, digits or other characters ({@code Tr0ub4dor&3}) wherever it
   * stands as a token of its own. A short one that reads like a word or a number ({@code lab},
   * {@code root}, {@code 1234}) is masked only where it stands as a value: the whole text, quoted
   * ({@code 'lab'}), or right after an {@code =} or {@code :} ({@code password=lab}, {@code
   * user:lab@db}, {@code secret: lab}) — so that the password {@code b} leaves {@code distribution}
   * and {@code jdbc} alone, and {@code lab} leaves {@code lab.orders}, {@code jdbc:mysql://db/lab}
   * and "the lab connects" alone.
   */
  public static String redactRegistered(String text) {
    String result = Objects.requireNonNull(text, "text");
    for (String secret : registeredLongestFirst) {
      if (result.contains(secret)) {
        result =
            secret.length() >= MASKED_ANYWHERE_LENGTH
                ? result.replace(secret, MASK)
                : replaceTokens(result, secret, readsLikeAWord(secret));
      }
    }
    return result;
  }

  private static boolean readsLikeAWord(String secret) {
    return secret.chars().allMatch(Character::isLetter)
        || secret.chars().allMatch(Character::isDigit);
  }

  private static String replaceTokens(String text, String secret, boolean onlyAsValue) {
    StringBuilder out = null;
    int last = 0;
    int at = text.indexOf(secret);
    while (at >= 0) {
      int end = at + secret.length();
      boolean token = !continuesToken(text, at - 1, -1) && !continuesToken(text, end, 1);
      if (token && (!onlyAsValue || standsAsValue(text, at, end))) {
        if (out == null) {
          out = new StringBuilder(text.length());
        }
        out.append(text, last, at).append(MASK);
        last = end;
        at = text.indexOf(secret, end);
      } else {
        at = text.indexOf(secret, at + 1);
      }
    }
    return out == null ? text : out.append(text, last, text.length()).toString();
  }

  /**
   * Whether the token {@code [at, end)}, a short secret's occurrence, is a value of its own rather
   * than a word of a sentence, where masking it would garble the text without hiding anything the
   * reader could tell was a secret.
   */
  private static boolean standsAsValue(String text, int at, int end) {
    if (at == 0 && end == text.length()) {
      return true;
    }
    char before = at > 0 ? text.charAt(at - 1) : 0;
    char after = end < text.length() ? text.charAt(end) : 0;
    if ((before == '\'' || before == '"') && after == before) {
      return true;
    }
    int assignment = at - 1;
    while (assignment >= 0 && text.charAt(assignment) == ' ') {
      assignment--;
    }
    boolean assigned =
        assignment >= 0 && (text.charAt(assignment) == '=' || text.charAt(assignment) == ':');
    // jdbc:mysql:// names a scheme, not a value
    return assigned && after != ':' && after != '/';
  }

  /**
   * Whether the character at {@code index} joins a secret found next to it into a longer word: a
   * letter, a digit, {@code _}, or a {@code .} or {@code -} with a letter or digit beyond it (so
   * that {@code lab.orders} and {@code --source-password} are words, a sentence's final {@code .}
   * is not).
   */
  private static boolean continuesToken(String text, int index, int direction) {
    if (index < 0 || index >= text.length()) {
      return false;
    }
    char c = text.charAt(index);
    if (Character.isLetterOrDigit(c) || c == '_') {
      return true;
    }
    int beyond = index + direction;
    return (c == '.' || c == '-')
        && beyond >= 0
        && beyond < text.length()
        && Character.isLetterOrDigit(text.charAt(beyond));
  }

  /** Like {@link #redact(String)}, passing {@code null} through. */
  public static @Nullable String redactNullable(@Nullable String text) {
    return text == null ? null : redact(text);
  }

  /**
   * Properties with secrets masked: the whole value of a key that names a secret, and any secret
   * inside other values. The key order is kept.
   */
  public static Map<String, String> redactProperties(Map<String, String> properties) {
    Map<String, String> result = new LinkedHashMap<>();
    properties.forEach((key, value) -> result.put(key, isSecretKey(key) ? MASK : redact(value)));
    return Collections.unmodifiableMap(result);
  }

  /**
   * Command-line arguments with secrets masked: the argument after an option that names a secret
   * ({@code --source-password x}), the value of {@code --opt=x} and {@code -Dkey=x} forms, and any
   * secret inside other arguments.
   */
  public static List<String> redactArguments(List<String> arguments) {
    List<String> result = new ArrayList<>(arguments.size());
    boolean maskNext = false;
    for (String argument : arguments) {
      if (maskNext && !argument.startsWith("--")) {
        result.add(MASK);
        maskNext = false;
        continue;
      }
      maskNext = false;
      if (argument.startsWith("-") && argument.indexOf('=') < 0 && isSecretKey(argument)) {
        maskNext = true;
        result.add(argument);
        continue;
      }
      result.add(redact(argument));
    }
    return List.copyOf(result);
  }

  /**
   * The arguments as one command line, secrets masked, each argument quoted for a POSIX shell where
   * it needs to be.
   */
  public static String commandLine(List<String> arguments) {
    StringBuilder line = new StringBuilder();
    for (String argument : redactArguments(arguments)) {
      if (line.length() > 0) {
        line.append(' ');
      }
      line.append(shellQuote(argument));
    }
    return line.toString();
  }

  private static String shellQuote(String argument) {
    if (!argument.isEmpty() && argument.matches("[\\w@%+=:,./*\\-]+")) {
      return argument;
    }
    return "'" + argument.replace("'", "'\"'\"'") + "'";
  }

  private static String replace(Pattern pattern, String text, int secretGroup) {
    Matcher matcher = pattern.matcher(text);
    if (!matcher.find()) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length());
    int last = 0;
    do {
      String value = matcher.group(secretGroup);
      out.append(text, last, matcher.start(secretGroup));
      out.append(masked(value));
      last = matcher.end(secretGroup);
    } while (matcher.find());
    out.append(text, last, text.length());
    return out.toString();
  }

  /** Keeps the quotes of a quoted value so that the surrounding text stays well-formed. */
  private static String masked(String value) {
    if (value.length() >= 2) {
      char first = value.charAt(0);
      if ((first == '"' || first == '\'') && value.charAt(value.length() - 1) == first) {
        return first + MASK + first;
      }
    }
    return MASK;
  }
}
