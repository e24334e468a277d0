package io.rollgate.e2e.support;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudwatch.CloudWatchClient;
import software.amazon.awssdk.services.cloudwatch.model.Dimension;
import software.amazon.awssdk.services.cloudwatch.model.MetricDatum;
import software.amazon.awssdk.services.elasticloadbalancingv2.ElasticLoadBalancingV2Client;

/**
 * A local AWS API emulator for tests: moto's server ({@code moto[server]} from PyPI, in the virtual
 * environment that {@code e2e/cluster/install-moto} caches; {@code bin/test} exports its python as
 * {@code ROLLGATE_MOTO_PYTHON}) on a free loopback port. It answers the AWS SDK's real requests
 * (signed, in the service's own protocol), so a test talks to it through the SDK with an endpoint
 * override and any credentials.
 */
public final class MotoServer implements AutoCloseable {

  /** The region the tests use. */
  public static final String REGION = "us-east-1";

  private final Process process;
  private final int port;

  private MotoServer(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /**
   * Starts the server and waits until it listens (bounded).
   *
   * @param name a name for the log file ({@code target/moto-<name>.log})
   * @return the running server
   */
  public static MotoServer start(String name) {
    String python = LocalServers.installed("ROLLGATE_MOTO_PYTHON", "install-moto");
    int port = ControllerProcess.freePort();
    Process process =
        LocalServers.start(
            List.of(python, "-m", "moto.server", "-H", "127.0.0.1", "-p", String.valueOf(port)),
            Map.of(),
            "moto-" + name + ".log");
    MotoServer server = new MotoServer(process, port);
    try {
      LocalServers.awaitPort(process, port, "moto (target/moto-" + name + ".log)");
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
    return server;
  }

  /** The endpoint, e.g. {@code http://127.0.0.1:40123}, for {@code AWS_ENDPOINT_URL_CLOUDWATCH}. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + port);
  }

  /**
   * The environment that points the AWS SDK of a process at this server: region, test credentials,
   * the CloudWatch and Elastic Load Balancing v2 endpoints, and instance metadata off (no probing
   * of 169.254.169.254).
   *
   * @return the variables
   */
  public Map<String, String> sdkEnvironment() {
    return Map.of(
        "AWS_REGION",
        REGION,
        "AWS_ACCESS_KEY_ID",
        "testing",
        "AWS_SECRET_ACCESS_KEY",
        "testing",
        "AWS_ENDPOINT_URL_CLOUDWATCH",
        endpoint().toString(),
        "AWS_ENDPOINT_URL_ELASTIC_LOAD_BALANCING_V2",
        endpoint().toString(),
        "AWS_EC2_METADATA_DISABLED",
        "true");
  }

  /**
   * An Elastic Load Balancing v2 client of this server, for seeding load balancers, target groups
   * and listener rules as the AWS Load Balancer Controller would create them. The caller closes it.
   *
   * @return the client
   */
  public ElasticLoadBalancingV2Client elbv2() {
    return ElasticLoadBalancingV2Client.builder()
        .httpClient(UrlConnectionHttpClient.create())
        .endpointOverride(endpoint())
        .region(Region.of(REGION))
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create("testing", "testing")))
        .build();
  }

  /**
   * The default VPC's subnets the server has in {@link #REGION} (EC2 {@code DescribeSubnets}, as a
   * plain query request: the tests need only the ids to create a load balancer).
   *
   * @return the subnet ids, at least two
   */
  public List<String> defaultSubnets() {
    HttpRequest request =
        HttpRequest.newBuilder(endpoint())
            .header("Content-Type", "application/x-www-form-urlencoded")
            // The emulator routes a request by the service in the credential scope; it does not
            // check signatures.
            .header(
                "Authorization",
                "AWS4-HMAC-SHA256 Credential=testing/20250101/"
                    + REGION
                    + "/ec2/aws4_request, SignedHeaders=host,"
                    + " Signature=0")
            .POST(HttpRequest.BodyPublishers.ofString("Action=DescribeSubnets&Version=2016-11-15"))
            .build();
    String body;
    try {
      body = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString()).body();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    List<String> ids = new java.util.ArrayList<>();
    Matcher m = Pattern.compile("<subnetId>([^<]+)</subnetId>").matcher(body);
    while (m.find()) {
      ids.add(m.group(1));
    }
    if (ids.size() < 2) {
      throw new IllegalStateException("DescribeSubnets answered fewer than two subnets: " + body);
    }
    return ids;
  }

  /**
   * The environment of a pod using IRSA (web identity), pointed at this server: no access keys, a
   * role ARN and a projected token file; the SDK exchanges the token for credentials with STS
   * ({@code AssumeRoleWithWebIdentity}), which this server answers too.
   *
   * @param tokenFile the web identity token file
   * @return the variables
   */
  public Map<String, String> webIdentityEnvironment(java.nio.file.Path tokenFile) {
    return Map.of(
        "AWS_REGION",
        REGION,
        "AWS_ROLE_ARN",
        "arn:aws:iam::123456789012:role/rollgate-controller",
        "AWS_ROLE_SESSION_NAME",
        "rollgate-e2e",
        "AWS_WEB_IDENTITY_TOKEN_FILE",
        tokenFile.toString(),
        "AWS_ENDPOINT_URL_CLOUDWATCH",
        endpoint().toString(),
        "AWS_ENDPOINT_URL_STS",
        endpoint().toString(),
        "AWS_EC2_METADATA_DISABLED",
        "true");
  }

  /**
   * Stores CloudWatch data points through the AWS SDK (as an application would), one per timestamp.
   *
   * @param namespace the metric namespace, e.g. {@code app}
   * @param metricName the metric name
   * @param dimensions dimension name to value
   * @param points timestamp to value
   */
  public void putMetricData(
      String namespace,
      String metricName,
      Map<String, String> dimensions,
      Map<Instant, Double> points) {
    List<Dimension> dims =
        dimensions.entrySet().stream()
            .map(e -> Dimension.builder().name(e.getKey()).value(e.getValue()).build())
            .toList();
    List<MetricDatum> data =
        points.entrySet().stream()
            .map(
                p ->
                    MetricDatum.builder()
                        .metricName(metricName)
                        .dimensions(dims)
                        .timestamp(p.getKey())
                        .value(p.getValue())
                        .build())
            .toList();
    try (CloudWatchClient client =
        CloudWatchClient.builder()
            .httpClient(UrlConnectionHttpClient.create())
            .endpointOverride(endpoint())
            .region(Region.of(REGION))
            .credentialsProvider(
                StaticCredentialsProvider.create(AwsBasicCredentials.create("testing", "testing")))
            .build()) {
      client.putMetricData(b -> b.namespace(namespace).metricData(data));
    }
  }

  /** Stops the server (its data lives in memory only). */
  @Override
  public void close() {
    Processes.stop(process);
  }
}
