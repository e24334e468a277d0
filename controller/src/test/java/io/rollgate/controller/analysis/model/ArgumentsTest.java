package io.rollgate.controller.analysis.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.rollgate.api.Argument;
import io.rollgate.api.Metric;
import io.rollgate.api.SecretKeyRef;
import io.rollgate.api.ValueFrom;
import io.rollgate.controller.analysis.model.Arguments.ArgumentException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ArgumentsTest {

  @Test
  void substitutesArgsWithSpacesInsideTheBraces() throws Exception {
    Metric m = Metrics.web("rate");
    m.getProvider().getWeb().setUrl("http://{{ args.host }}/q?svc={{args.svc}}");
    m.setCount(new IntOrString("{{args.count}}"));

    Metric resolved =
        Arguments.substitute(m, Map.of("host", "web.shop", "svc", "a b", "count", "3"));

    assertEquals("http://web.shop/q?svc=a b", resolved.getProvider().getWeb().getUrl());
    assertEquals(3, MetricRules.intValue(resolved.getCount(), 0));
    assertEquals(
        "http://{{ args.host }}/q?svc={{args.svc}}",
        m.getProvider().getWeb().getUrl(),
        "input unchanged");
  }

  @Test
  void escapesValuesAsJsonStringContent() throws Exception {
    Metric m = Metrics.web("rate");
    m.setSuccessCondition("result == \"{{args.v}}\"");

    Metric resolved = Arguments.substitute(m, Map.of("v", "a\"b\\c\nd", "path", "x"));

    assertEquals("result == \"a\"b\\c\nd\"", resolved.getSuccessCondition());
  }

  @Test
  void rejectsUnknownTokens() {
    Metric m = Metrics.web("rate");
    m.setSuccessCondition("{{args.missing}} {{ other }}");

    ArgumentException e =
        assertThrows(ArgumentException.class, () -> Arguments.substitute(m, Map.of("path", "p")));

    assertEquals("failed to resolve {{ other }}", e.getMessage());
  }

  @Test
  void requiresAValueForEveryArgument() {
    Argument noValue = new Argument();
    noValue.setName("x");

    ArgumentException e =
        assertThrows(ArgumentException.class, () -> Arguments.values(List.of(noValue), null));

    assertEquals("argument \"x\" was not supplied", e.getMessage());
  }

  @Test
  void readsSecretsOnlyWhenAsked() throws Exception {
    Argument secret = new Argument();
    secret.setName("token");
    ValueFrom from = new ValueFrom();
    SecretKeyRef ref = new SecretKeyRef();
    ref.setName("s");
    ref.setKey("k");
    from.setSecretKeyRef(ref);
    secret.setValueFrom(from);
    Argument plain = new Argument();
    plain.setName("a");
    plain.setValue("1");

    assertEquals(
        Map.of("token", Arguments.SECRET_PLACEHOLDER, "a", "1"),
        Arguments.values(List.of(secret, plain), null));
    assertEquals(
        Map.of("token", "s/k", "a", "1"),
        Arguments.values(List.of(secret, plain), r -> r.getName() + "/" + r.getKey()));
    assertEquals(List.of(ref), Arguments.secretRefs(List.of(secret, plain)));
  }
}
