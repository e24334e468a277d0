package io.rollgate.controller.rollout.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class NewReplicaSetMatchTest {

  /** A ReplicaSet reduced to its name, hash label and whether its template matches. */
  private record Rs(String name, String hash, boolean sameTemplate) {}

  private final List<Rs> compared = new ArrayList<>();

  private Rs find(List<Rs> rss, String podHash, List<String> otherHashes) {
    Predicate<Rs> same =
        rs -> {
          compared.add(rs);
          return rs.sameTemplate();
        };
    return NewReplicaSetMatch.find(rss, Rs::hash, podHash, otherHashes, same);
  }

  @Test
  void prefersTheHashLabel_withoutComparingTemplates() {
    Rs old = new Rs("old", "aaa", true);
    Rs current = new Rs("current", "bbb", false);
    assertSame(current, find(List.of(old, current), "bbb", Arrays.asList("ccc")));
    assertEquals(List.of(), compared);
  }

  @Test
  void takesTheLastReplicaSetWithTheHashLabel() {
    Rs first = new Rs("first", "bbb", false);
    Rs second = new Rs("second", "bbb", false);
    assertSame(second, find(List.of(first, second), "bbb", Arrays.asList()));
  }

  @Test
  void fallsBackToAnotherEncodingsHash_thenToTheFirstSameTemplate() {
    Rs sameTemplate = new Rs("same", "zzz", true);
    Rs older = new Rs("older", "ccc", false);
    Rs older2 = new Rs("older2", "ddd", false);
    assertSame(
        older, find(List.of(sameTemplate, older, older2), "bbb", Arrays.asList("ccc", "ddd")));
    assertEquals(List.of(), compared);

    Rs first = new Rs("first", "x", false);
    Rs second = new Rs("second", "y", true);
    Rs third = new Rs("third", "z", true);
    assertSame(second, find(List.of(first, second, third), "bbb", Arrays.asList("ccc")));
    assertEquals(List.of(first, second), compared);
  }

  @Test
  void findsNothing_whenNothingMatches() {
    assertNull(find(List.of(new Rs("a", null, false)), "bbb", Arrays.asList("ccc")));
    assertNull(find(List.of(), "bbb", Arrays.asList()));
  }
}
