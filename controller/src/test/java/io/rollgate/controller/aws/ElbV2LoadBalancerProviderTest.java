package io.rollgate.controller.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rollgate.controller.analysis.provider.common.MetricHttpClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;

/**
 * The ELBv2 reads through the AWS SDK and the controller's Vert.x transport, against an in-process
 * server that answers the query protocol: pages are followed, tags are asked 20 ARNs at a time,
 * weights come from every listener's rules.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, timeUnit = TimeUnit.SECONDS)
class ElbV2LoadBalancerProviderTest {

  static final String NS = "http://elasticloadbalancing.amazonaws.com/doc/2015-12-01/";
  static final String LB_ARN =
      "arn:aws:elasticloadbalancing:us-east-1:123456789012:loadbalancer/app/web/1";

  static String answer(String action, String result) {
    return "<"
        + action
        + "Response xmlns=\""
        + NS
        + "\"><"
        + action
        + "Result>"
        + result
        + "</"
        + action
        + "Result>"
        + "<ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></"
        + action
        + "Response>";
  }

  static String tgArn(int i) {
    return "arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/tg" + i + "/" + i;
  }

  static Map<String, String> form(String body) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String kv : body.split("&")) {
      int eq = kv.indexOf('=');
      out.put(
          URLDecoder.decode(kv.substring(0, eq), StandardCharsets.UTF_8),
          URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8));
    }
    return out;
  }

  /**
   * 25 target groups; two listeners, the second one's rules on two pages; group 7 has no forward
   * action.
   */
  static String respond(Map<String, String> f) {
    String marker = f.get("Marker");
    switch (f.get("Action")) {
      case "DescribeLoadBalancers":
        if (marker == null) {
          return answer(
              "DescribeLoadBalancers",
              "<LoadBalancers><member><LoadBalancerName>other</LoadBalancerName>"
                  + "<LoadBalancerArn>arn:other</LoadBalancerArn><DNSName>other.elb.amazonaws.com</DNSName></member>"
                  + "</LoadBalancers><NextMarker>page2</NextMarker>");
        }
        return answer(
            "DescribeLoadBalancers",
            "<LoadBalancers><member><LoadBalancerName>web</LoadBalancerName>"
                + "<LoadBalancerArn>"
                + LB_ARN
                + "</LoadBalancerArn><DNSName>web.elb.amazonaws.com</DNSName></member>"
                + "</LoadBalancers>");
      case "DescribeTargetGroups":
        {
          StringBuilder b = new StringBuilder("<TargetGroups>");
          for (int i = 0; i < 25; i++) {
            b.append("<member><TargetGroupName>tg")
                .append(i)
                .append("</TargetGroupName><TargetGroupArn>")
                .append(tgArn(i))
                .append("</TargetGroupArn></member>");
          }
          return answer("DescribeTargetGroups", b.append("</TargetGroups>").toString());
        }
      case "DescribeTags":
        {
          StringBuilder b = new StringBuilder("<TagDescriptions>");
          for (int i = 1; f.containsKey("ResourceArns.member." + i); i++) {
            String arn = f.get("ResourceArns.member." + i);
            b.append("<member><ResourceArn>")
                .append(arn)
                .append("</ResourceArn><Tags><member><Key>ingress.k8s.aws/resource")
                .append("</Key><Value>")
                .append(arn.substring(arn.lastIndexOf('/') + 1))
                .append("</Value></member></Tags></member>");
          }
          return answer("DescribeTags", b.append("</TagDescriptions>").toString());
        }
      case "DescribeListeners":
        return answer(
            "DescribeListeners",
            "<Listeners><member><ListenerArn>l1</ListenerArn></member>"
                + "<member><ListenerArn>l2</ListenerArn></member></Listeners>");
      case "DescribeRules":
        {
          String listener = f.get("ListenerArn");
          if ("l1".equals(listener)) {
            return answer("DescribeRules", "<Rules>" + rule(0, 10) + rule(1, 90) + "</Rules>");
          }
          if (marker == null) {
            return answer(
                "DescribeRules", "<Rules>" + rule(24, 5) + "</Rules><NextMarker>r2</NextMarker>");
          }
          return answer("DescribeRules", "<Rules>" + rule(1, 95) + "</Rules>");
        }
      case "DescribeTargetHealth":
        return answer(
            "DescribeTargetHealth",
            "<TargetHealthDescriptions><member><Target><Id>10.0.0.1</Id><Port>8080</Port>"
                + "</Target><TargetHealth><State>unhealthy</State></TargetHealth></member></TargetHealthDescriptions>");
      default:
        throw new IllegalArgumentException(f.get("Action"));
    }
  }

  static String rule(int group, int weight) {
    return "<member><Actions><member><Type>forward</Type><ForwardConfig><TargetGroups><member><TargetGroupArn>"
        + tgArn(group)
        + "</TargetGroupArn><Weight>"
        + weight
        + "</Weight></member></TargetGroups></ForwardConfig>"
        + "</member></Actions></member>";
  }

  static Future<HttpServer> server(Vertx vertx, List<String> actions) {
    return vertx
        .createHttpServer()
        .requestHandler(
            req ->
                req.body()
                    .onSuccess(
                        body -> {
                          Map<String, String> f = form(body.toString());
                          actions.add(
                              f.get("Action")
                                  + (f.containsKey("Marker") ? "@" + f.get("Marker") : ""));
                          req.response().putHeader("Content-Type", "text/xml").end(respond(f));
                        }))
        .listen(0, "127.0.0.1");
  }

  static ElbV2LoadBalancerProvider provider(Vertx vertx, int port) {
    return new ElbV2LoadBalancerProvider(
        new MetricHttpClient(vertx),
        b ->
            b.endpointOverride(URI.create("http://127.0.0.1:" + port))
                .region(Region.US_EAST_1)
                .credentialsProvider(
                    StaticCredentialsProvider.create(
                        AwsBasicCredentials.create("AKID", "secret"))));
  }

  @Test
  void findsTheLoadBalancerOnALaterPage_andReadsTagsInBatchesAndWeightsFromEveryListener(
      Vertx vertx, VertxTestContext test) {
    List<String> actions = new CopyOnWriteArrayList<>();
    server(vertx, actions)
        .compose(
            s -> {
              ElbV2LoadBalancerProvider p = provider(vertx, s.actualPort());
              return p.findByDnsName("web.elb.amazonaws.com")
                  .compose(
                      lb ->
                          p.targetGroups(lb.orElseThrow().arn())
                              .map(groups -> Map.entry(lb.get(), groups)));
            })
        .onComplete(
            test.succeeding(
                found ->
                    test.verify(
                        () -> {
                          assertEquals(
                              new LoadBalancerProvider.LoadBalancer(
                                  "web", LB_ARN, "web.elb.amazonaws.com"),
                              found.getKey());
                          List<LoadBalancerProvider.TargetGroup> groups = found.getValue();
                          assertEquals(25, groups.size());
                          assertEquals("tg0", groups.get(0).name());
                          assertEquals(
                              Map.of("ingress.k8s.aws/resource", "0"), groups.get(0).tags());
                          assertEquals(
                              Map.of("ingress.k8s.aws/resource", "24"),
                              groups.get(24).tags(),
                              "second DescribeTags batch");
                          assertEquals(10, groups.get(0).weight());
                          assertEquals(
                              95,
                              groups.get(1).weight(),
                              "the last forward action naming the group wins");
                          assertEquals(5, groups.get(24).weight());
                          assertNull(groups.get(7).weight());
                          List<String> expected =
                              new ArrayList<>(
                                  List.of(
                                      "DescribeLoadBalancers",
                                      "DescribeLoadBalancers@page2",
                                      "DescribeTargetGroups",
                                      "DescribeTags",
                                      "DescribeTags",
                                      "DescribeListeners",
                                      "DescribeRules",
                                      "DescribeRules",
                                      "DescribeRules@r2"));
                          assertEquals(expected, actions);
                          test.completeNow();
                        })));
  }

  @Test
  void listsRegisteredTargets_andAnUnknownDnsNameIsEmpty(Vertx vertx, VertxTestContext test) {
    List<String> actions = new CopyOnWriteArrayList<>();
    server(vertx, actions)
        .compose(
            s -> {
              ElbV2LoadBalancerProvider p = provider(vertx, s.actualPort());
              return p.findByDnsName("nowhere.elb.amazonaws.com")
                  .compose(
                      none ->
                          p.targets(tgArn(0)).map(targets -> Map.entry(none.isEmpty(), targets)));
            })
        .onComplete(
            test.succeeding(
                r ->
                    test.verify(
                        () -> {
                          assertTrue(r.getKey());
                          assertEquals(
                              List.of(new LoadBalancerProvider.Target("10.0.0.1", 8080)),
                              r.getValue());
                          test.completeNow();
                        })));
  }

  @Test
  void anAwsErrorNamesTheCall(Vertx vertx, VertxTestContext test) {
    vertx
        .createHttpServer()
        .requestHandler(
            req ->
                req.body()
                    .onSuccess(
                        b ->
                            req.response()
                                .setStatusCode(403)
                                .putHeader("Content-Type", "text/xml")
                                .end(
                                    "<ErrorResponse xmlns=\""
                                        + NS
                                        + "\"><Error><Type>Sender</Type><Code>AccessDenied</Code><Message>"
                                        + "User is not authorized to perform: elasticloadbalancing:DescribeLoadBalancers</Message></Error>"
                                        + "<RequestId>r</RequestId></ErrorResponse>")))
        .listen(0, "127.0.0.1")
        .compose(s -> provider(vertx, s.actualPort()).findByDnsName("web.elb.amazonaws.com"))
        .onComplete(
            test.failing(
                e ->
                    test.verify(
                        () -> {
                          assertTrue(
                              e.getMessage()
                                  .startsWith(
                                      "DescribeLoadBalancers: User is not authorized to perform: "
                                          + "elasticloadbalancing:DescribeLoadBalancers"),
                              e.getMessage());
                          test.completeNow();
                        })));
  }
}
