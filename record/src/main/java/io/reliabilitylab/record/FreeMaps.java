package io.reliabilitylab.record;

import io.reliabilitylab.spi.secret.Redactor;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Free-form sections of a record (connector status, diagnostic details): deep, unmodifiable copies
 * holding only JSON values, secrets masked. Numbers are normalised to {@code Long} or {@code
 * Double} and other objects to their text, so that a section equals itself after a JSON round trip.
 */
final class FreeMaps {

  private FreeMaps() {}

  static Map<String, @Nullable Object> freeze(Map<String, ? extends @Nullable Object> map) {
    Map<String, @Nullable Object> copy = new LinkedHashMap<>();
    map.forEach(
        (key, value) ->
            copy.put(
                key,
                Redactor.isSecretKey(key) && value != null && !(value instanceof Map)
                    ? Redactor.MASK
                    : freezeValue(value)));
    return Collections.unmodifiableMap(copy);
  }

  private static @Nullable Object freezeValue(@Nullable Object value) {
    if (value == null || value instanceof Boolean || value instanceof Long) {
      return value;
    }
    if (value instanceof String text) {
      return Redactor.redact(text);
    }
    if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return ((Number) value).longValue();
    }
    if (value instanceof BigInteger big) {
      return big.bitLength() < 64 ? (Object) big.longValue() : big;
    }
    if (value instanceof Double) {
      return value;
    }
    if (value instanceof Float || value instanceof BigDecimal) {
      return ((Number) value).doubleValue();
    }
    if (value instanceof Map<?, ?> map) {
      Map<String, @Nullable Object> stringKeys = new LinkedHashMap<>();
      map.forEach((key, inner) -> stringKeys.put(String.valueOf(key), inner));
      return freeze(stringKeys);
    }
    if (value instanceof Collection<?> collection) {
      List<@Nullable Object> list = new ArrayList<>(collection.size());
      for (Object element : collection) {
        list.add(freezeValue(element));
      }
      return Collections.unmodifiableList(list);
    }
    return Redactor.redact(value.toString());
  }
}
