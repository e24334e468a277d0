package io.rollgate.expr;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;

/**
 * Methods callable on values, as expr-lang exposes Go methods: the common ones of {@code time.Time}
 * and {@code time.Duration} ({@code now().Unix()}, {@code duration("1h").Seconds()}), and functions
 * stored in maps.
 */
final class Methods {

  private Methods() {}

  static Object call(Object target, String name, List<Object> args, int pos) {
    target = Values.normalize(target);
    if (target instanceof Map<?, ?> map && map.get(name) instanceof ExprFunction f) {
      try {
        return Values.normalize(f.call(args));
      } catch (ExpressionEvaluationException e) {
        throw e.position() >= 0 ? e : Interpreter.error(pos, e.getMessage());
      } catch (RuntimeException e) {
        throw Interpreter.error(pos, String.valueOf(e.getMessage()));
      }
    }
    if (target instanceof Duration d) {
      Object r = duration(d, name, args, pos);
      if (r != null) {
        return r;
      }
    } else if (target instanceof Instant t) {
      Object r = time(t, name, args, pos);
      if (r != null) {
        return r;
      }
    }
    throw Interpreter.error(pos, "type " + Values.typeName(target) + " has no method " + name);
  }

  private static void arity(String name, List<Object> args, int n, int pos) {
    if (args.size() != n) {
      throw Interpreter.error(
          pos, (args.size() < n ? "not enough" : "too many") + " arguments to call " + name);
    }
  }

  private static Object duration(Duration d, String name, List<Object> args, int pos) {
    double nanos = d.getSeconds() * 1e9 + d.getNano();
    switch (name) {
      case "Hours":
        arity(name, args, 0, pos);
        return nanos / 3.6e12;
      case "Minutes":
        arity(name, args, 0, pos);
        return nanos / 6e10;
      case "Seconds":
        arity(name, args, 0, pos);
        return nanos / 1e9;
      case "Milliseconds":
        arity(name, args, 0, pos);
        return d.toMillis();
      case "Microseconds":
        arity(name, args, 0, pos);
        return d.toNanos() / 1000;
      case "Nanoseconds":
        arity(name, args, 0, pos);
        return d.toNanos();
      case "Abs":
        arity(name, args, 0, pos);
        return d.abs();
      case "String":
        arity(name, args, 0, pos);
        return Values.formatDuration(d);
      default:
        return null;
    }
  }

  private static Object time(Instant t, String name, List<Object> args, int pos) {
    ZonedDateTime z = t.atZone(ZoneOffset.UTC);
    if (name.equals("Sub")
        || name.equals("Add")
        || name.equals("After")
        || name.equals("Before")
        || name.equals("Equal")) {
      arity(name, args, 1, pos);
      Object arg = Values.normalize(args.get(0));
      if (name.equals("Add") && arg instanceof Duration d) {
        return t.plus(d);
      }
      if (arg instanceof Instant other) {
        return switch (name) {
          case "Sub" -> Duration.between(other, t);
          case "After" -> t.isAfter(other);
          case "Before" -> t.isBefore(other);
          case "Equal" -> t.equals(other);
          default ->
              throw Interpreter.error(pos, "invalid argument for " + name + " (type time.Time)");
        };
      }
      throw Interpreter.error(
          pos, "invalid argument for " + name + " (type " + Values.typeName(arg) + ")");
    }
    arity(name, args, 0, pos);
    return switch (name) {
      case "Unix" -> t.getEpochSecond();
      case "UnixMilli" -> t.toEpochMilli();
      case "Year" -> (long) z.getYear();
      case "Month" -> (long) z.getMonthValue();
      case "Day" -> (long) z.getDayOfMonth();
      case "Hour" -> (long) z.getHour();
      case "Minute" -> (long) z.getMinute();
      case "Second" -> (long) z.getSecond();
      case "Nanosecond" -> (long) z.getNano();
      case "YearDay" -> (long) z.getDayOfYear();
      case "Weekday" -> (long) (z.getDayOfWeek().getValue() % 7);
      case "UTC" -> t;
      case "String" -> Values.formatTime(t);
      default -> null;
    };
  }
}
