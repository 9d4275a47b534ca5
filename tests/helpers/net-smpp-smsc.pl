#!/usr/bin/perl
# An SMSC written with Net::SMPP (Debian's libnet-smpp-perl), not with Tumira's codec: accepts one
# transceiver bind, originates mobile messages to it as deliver_sm, and prints each
# deliver_sm_resp status ("resp <name> <status>"). Prints "port <n>" once listening.
use strict;
use warnings;
use Net::SMPP;

$| = 1;
my $listener = Net::SMPP->new_listen('127.0.0.1', port => 0, smpp_version => 0x34, timeout => 30) or die "listen: $!";
print "port ", $listener->sockport, "\n";
my $smsc = $listener->accept or die "accept: $!";
my $bind = $smsc->read_pdu() or die "no bind";
$smsc->bind_transceiver_resp(system_id => 'perlsmsc', seq => $bind->{seq}) or die "bind_transceiver_resp";

sub deliver {
    my ($name, %fields) = @_;
    my $resp = $smsc->deliver_sm(source_addr_ton => 1, source_addr_npi => 1, source_addr => '263771234567',
        dest_addr_ton => 0, dest_addr_npi => 1, destination_addr => '34567', %fields) or die "no deliver_sm_resp for $name";
    print "resp $name ", $resp->{status}, "\n";
}

# GSM-7, unpacked, with an extension-table character (0x1B 0x65 is the euro sign).
my $gsm = "Price \x1b\x65" . "5 ok";
deliver('gsm', esm_class => 0, data_coding => 0, short_message => $gsm);
# A two-part UCS-2 message numbered by SAR TLVs, its second part first.
my $text = join('', map { pack('n', ord($_)) } split //, "Makadii? Tiri kutenda!");
my ($one, $two) = (substr($text, 0, 20), substr($text, 20));
deliver('sar2', esm_class => 0, data_coding => 8, short_message => $two,
    sar_msg_ref_num => pack('n', 4242), sar_total_segments => pack('C', 2), sar_segment_seqnum => pack('C', 2));
deliver('sar1', esm_class => 0, data_coding => 8, short_message => $one,
    sar_msg_ref_num => pack('n', 4242), sar_total_segments => pack('C', 2), sar_segment_seqnum => pack('C', 1));
# The first PDU again, as an SMSC does when its acknowledgement was lost.
deliver('gsm-again', esm_class => 0, data_coding => 0, short_message => $gsm);

$smsc->unbind();
print "done\n";
