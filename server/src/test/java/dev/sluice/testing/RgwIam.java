package dev.sluice.testing;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * Roles on the Ceph RGW bed through RGW's IAM API (the Query API AWS documents: CreateRole,
 * PutRolePolicy, DeleteRolePolicy, DeleteRole), signed with SigV4 as the bed's admin user, whose
 * {@code roles=*} cap allows it ({@code scripts/ceph-rgw.sh} makes the bed's own role the same
 * way). The server's test classpath has no IAM SDK module, so the few calls are made by hand.
 */
public final class RgwIam {
  /** The bed's admin user ({@code ADMIN_UID} in scripts/ceph-rgw.sh): it may assume the roles. */
  public static final String ADMIN_USER_ARN = "arn:aws:iam:::user/catalog";

  private static final Pattern ARN = Pattern.compile("<Arn>([^<]+)</Arn>");
  private final CephRgw rgw;
  private final HttpClient http = HttpClient.newHttpClient();
  private final AwsV4HttpSigner signer = AwsV4HttpSigner.create();

  public RgwIam(CephRgw rgw) {
    this.rgw = requireNonNull(rgw, "rgw");
  }

  /**
   * Creates role {@code name} that the bed's admin user may assume, with {@code permissions} (a
   * policy document) as its one permission policy; returns its ARN.
   */
  public String createRole(String name, String permissions) throws Exception {
    String trust =
        "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":[\""
            + ADMIN_USER_ARN
            + "\"]},\"Action\":[\"sts:AssumeRole\"]}]}";
    Map<String, String> create = new LinkedHashMap<>();
    create.put("Action", "CreateRole");
    create.put("RoleName", name);
    create.put("AssumeRolePolicyDocument", trust);
    create.put("MaxSessionDuration", "43200");
    String answer = call(create);
    Matcher arn = ARN.matcher(answer);
    if (!arn.find()) {
      throw new IllegalStateException("CreateRole answered no ARN: " + answer);
    }
    Map<String, String> put = new LinkedHashMap<>();
    put.put("Action", "PutRolePolicy");
    put.put("RoleName", name);
    put.put("PolicyName", "permissions");
    put.put("PolicyDocument", permissions);
    call(put);
    return arn.group(1);
  }

  /** Removes role {@code name} and its permission policy; quiet when it is gone already. */
  public void deleteRole(String name) {
    try {
      call(Map.of("Action", "DeleteRolePolicy", "RoleName", name, "PolicyName", "permissions"));
    } catch (Exception e) {
      // gone, or never had one: the role itself is what matters
    }
    try {
      call(Map.of("Action", "DeleteRole", "RoleName", name));
    } catch (Exception e) {
      // gone already
    }
  }

  private String call(Map<String, String> parameters) throws Exception {
    StringBuilder body = new StringBuilder("Version=2010-05-08");
    parameters.forEach(
        (k, v) ->
            body.append('&')
                .append(URLEncoder.encode(k, StandardCharsets.UTF_8))
                .append('=')
                .append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
    String form = body.toString();
    URI uri = URI.create(rgw.endpoint() + "/");
    SdkHttpRequest request =
        SdkHttpRequest.builder()
            .method(SdkHttpMethod.POST)
            .uri(uri)
            .putHeader("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
            .build();
    SdkHttpRequest signed =
        signer
            .sign(
                r ->
                    r.identity(AwsCredentialsIdentity.create(rgw.accessKey(), rgw.secretKey()))
                        .request(request)
                        .payload(ContentStreamProvider.fromUtf8String(form))
                        .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "iam")
                        .putProperty(AwsV4HttpSigner.REGION_NAME, rgw.region()))
            .request();
    HttpRequest.Builder out =
        HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.ofString(form));
    signed
        .headers()
        .forEach(
            (name, values) -> {
              // The JDK client sets these itself and refuses them from a caller.
              if (!name.equalsIgnoreCase("host") && !name.equalsIgnoreCase("content-length")) {
                values.forEach(value -> out.header(name, value));
              }
            });
    HttpResponse<String> response = http.send(out.build(), HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() / 100 != 2) {
      throw new IllegalStateException(
          parameters.get("Action") + " answered " + response.statusCode() + ": " + response.body());
    }
    return response.body();
  }
}
