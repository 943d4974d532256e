package dev.sluice.vending.s3;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.location.StorageLocation;
import dev.sluice.vending.ClientProperties;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code storageConfigInfo.accessPoints}: for a bucket of the catalog's locations, the S3 access
 * point engines reach it through, by ARN ({@code {"acme-lake":
 * "arn:aws:s3:us-east-1:111122223333:accesspoint/lake"}}). A location may also name an access point
 * by its alias ({@code s3://lake-abc…-s3alias/wh}); the alias then needs its ARN here too.
 *
 * <p>Why the ARN: a request through an access point is authorized against the access point's
 * resources ({@code arn:…:accesspoint/<name>/object/<key>}, and the access point's ARN itself for a
 * listing), not the bucket's, so the session policy must name those; an alias is a bucket-style
 * name for data requests, not an IAM resource. Engines get Iceberg's {@code
 * s3.access-points.<bucket>} so that S3FileIO sends their requests through the access point.
 */
public record AccessPoints(Map<String, AccessPoint> byBucket) {
  public static final AccessPoints NONE = new AccessPoints(Map.of());
  private static final String KEY = "storageConfigInfo.accessPoints";
  // AWS's access point naming rules: 3-50 of a-z, 0-9 and '-', not starting or ending with '-'.
  private static final Pattern ARN =
      Pattern.compile(
          "arn:(aws[a-z-]*):s3:([a-z0-9-]+):([0-9]{12}):accesspoint/([a-z0-9][a-z0-9-]{1,48}[a-z0-9])");
  // AWS reserves this suffix for access point aliases: no bucket's name ends with it.
  static final String ALIAS_SUFFIX = "-s3alias";

  /** One access point, by the parts of its ARN. */
  public record AccessPoint(String partition, String region, String account, String name) {
    public String arn() {
      return "arn:" + partition + ":s3:" + region + ":" + account + ":accesspoint/" + name;
    }

    /** The objects matching {@code keyPattern} through this access point. */
    String objectArn(String keyPattern) {
      return arn() + "/object/" + keyPattern;
    }
  }

  public AccessPoints {
    byBucket = Map.copyOf(byBucket);
  }

  /** Reads and validates the map against the catalog's region and allowed locations. */
  static AccessPoints parse(JsonNode info, String region, List<String> allowedLocations) {
    TreeSet<String> buckets = new TreeSet<>();
    for (String location : allowedLocations) {
      buckets.add(StorageLocation.parse(location).authority());
    }
    Map<String, AccessPoint> byBucket = new TreeMap<>();
    JsonNode node = info.get("accessPoints");
    if (node != null && !node.isNull()) {
      if (!node.isObject()) {
        throw new IllegalArgumentException(
            KEY + " must be an object mapping a bucket to its access point ARN");
      }
      Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
      while (fields.hasNext()) {
        Map.Entry<String, JsonNode> field = fields.next();
        String bucket = field.getKey();
        if (!buckets.contains(bucket)) {
          throw new IllegalArgumentException(
              KEY + ": bucket " + bucket + " is not a bucket of allowedLocations " + buckets);
        }
        byBucket.put(bucket, accessPoint(bucket, field.getValue(), region));
      }
    }
    for (String bucket : buckets) {
      if (bucket.endsWith(ALIAS_SUFFIX) && !byBucket.containsKey(bucket)) {
        throw new IllegalArgumentException(
            KEY
                + ": "
                + bucket
                + " in allowedLocations is an access point alias; give its access point's ARN"
                + " (accessPoints: {\""
                + bucket
                + "\": \"arn:aws:s3:<region>:<account>:accesspoint/<name>\"}), which the session"
                + " policy must name");
      }
    }
    return byBucket.isEmpty() ? NONE : new AccessPoints(byBucket);
  }

  private static AccessPoint accessPoint(String bucket, JsonNode value, String region) {
    String text = value.isTextual() ? value.asText() : String.valueOf(value);
    Matcher arn = ARN.matcher(text);
    if (!value.isTextual() || !arn.matches()) {
      throw new IllegalArgumentException(
          KEY
              + "."
              + bucket
              + ": "
              + text
              + " is not an access point ARN (arn:<partition>:s3:<region>:<account>:accesspoint/<name>)");
    }
    if (!arn.group(2).equals(region)) {
      throw new IllegalArgumentException(
          KEY
              + "."
              + bucket
              + ": "
              + text
              + " is in region "
              + arn.group(2)
              + ", but the catalog's region is "
              + region
              + " (engines' S3FileIO reaches access points in the client's region only)");
    }
    return new AccessPoint(arn.group(1), arn.group(2), arn.group(3), arn.group(4));
  }

  public boolean isEmpty() {
    return byBucket.isEmpty();
  }

  /** The access point {@code bucket} (a bucket or alias of a location) is reached through. */
  public Optional<AccessPoint> of(String bucket) {
    return Optional.ofNullable(byBucket.get(bucket));
  }

  /** {@code s3.access-points.<bucket>} = the access point's ARN, for each bucket. */
  public Map<String, String> clientProperties() {
    Map<String, String> properties = new LinkedHashMap<>();
    new TreeMap<>(byBucket)
        .forEach(
            (bucket, point) ->
                properties.put(ClientProperties.S3_ACCESS_POINTS_PREFIX + bucket, point.arn()));
    return properties;
  }
}
